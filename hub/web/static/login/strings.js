// feltwire sign-in page's strings.

/** English and Czech, registered by the entry module with i18n.add(). */
export const STRINGS = {
  en: {
    "login.title": "Sign in",
    "login.name": "Name",
    "login.password": "Password",
    "login.submit": "Sign in",
    "login.signOut": "Sign out",
    "login.signedIn": "Signed in as {name} ({role}).",
    "login.signedOut": "Signed out.",
    "login.wrong": "Wrong name or password.",
    "login.tooMany": "Too many failed attempts. Try again in {seconds} s.",
    "login.failed": "Sign-in failed ({status}). Try again.",
    "login.cookieRefused":
      "The browser did not keep the session cookie: open the hub over https, or set web.secure_cookies = false.",
    "login.offline": "The hub cannot be reached.",
    "role.dealer": "dealer",
    "role.producer": "producer",
    "role.admin": "admin",
  },
  cs: {
    "login.title": "Přihlášení",
    "login.name": "Jméno",
    "login.password": "Heslo",
    "login.submit": "Přihlásit",
    "login.signOut": "Odhlásit",
    "login.signedIn": "Přihlášen(a) jako {name} ({role}).",
    "login.signedOut": "Odhlášeno.",
    "login.wrong": "Špatné jméno nebo heslo.",
    "login.tooMany": "Příliš mnoho neúspěšných pokusů. Zkuste to znovu za {seconds} s.",
    "login.failed": "Přihlášení se nezdařilo ({status}). Zkuste to znovu.",
    "login.cookieRefused":
      "Prohlížeč si nepodržel přihlašovací cookie: otevřete hub přes https, nebo nastavte web.secure_cookies = false.",
    "login.offline": "Hub není dostupný.",
    "role.dealer": "krupiér",
    "role.producer": "produkce",
    "role.admin": "správce",
  },
};
