// The pages' translations at their old address, /static/i18n.js (a bookmark, a cached
// page, tests/integration/security/test_web_access.py fetches it): the module is lib/i18n.js.
export * from "./lib/i18n.js";
