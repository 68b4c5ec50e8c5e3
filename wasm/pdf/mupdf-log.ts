// mupdf's own messages ("format error: cannot find startxref", "warning: trying to repair broken
// xref", …): by default its WebAssembly build prints them to stderr, where they reach the
// terminal of a one-shot command and the service log, in mupdf's words and unasked. They are a
// diary of its repairs, not news for the user: what matters reaches the user as the outcome (the
// repaired result, or INVALID_INPUT with the error mupdf threw, which carries its own message).
// So they are dropped. The service has no debug log to send them to; should it get one, this is
// the place to route them there.
//
// Imported for its effect by mupdf-document.ts, through which every module opens or creates its
// mupdf documents, so the route is set before mupdf parses anything.

import * as mupdf from 'mupdf';

const drop = (): void => undefined;

mupdf.setLog({ error: drop, warning: drop });
