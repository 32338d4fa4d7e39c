// The page a refused overlay link gets (hub/web/overlay.py): why, in the reader's
// language (?lang=, as every page), and a sign-in link that comes back to the overlay
// without the refused token.

import { exposeForTests, i18n } from "./lib/i18n.js";
import { STRINGS } from "./overlay/strings.js";

i18n.add(STRINGS);
exposeForTests();
i18n.apply();
