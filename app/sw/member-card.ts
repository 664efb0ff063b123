// The member card kept on the phone for use offline (docs/membership.md, "The member's pages"):
// the rules the service worker follows to keep, show and forget its copy, with no worker globals
// so they can be tested on their own.

/** The one address whose page is kept. Any other address, a query string included, never gets it. */
export const MEMBER_CARD_PATH = "/members/card";

/** The cache that holds the card's copy and the files it needs, and nothing else. */
export const MEMBER_CARD_CACHE = "member-card";

/**
 * The attribute of the card's "Saved on this phone" note. The page sends the note hidden; the copy
 * shows it. A page without it (no membership, so no card) is never kept.
 */
const SAVED_NOTE_ATTRIBUTE = "data-saved-card-note";

/** How long a page load waits for the server before the saved copy answers (a weak signal at the gate). */
export const CARD_NETWORK_WAIT_MS = 5000;

/** The card page itself, asked for by a page load. */
export function isMemberCardPage(url: URL, origin: string) {
  return url.origin === origin && url.pathname === MEMBER_CARD_PATH && url.search === "";
}

/** React Router's data request for the card page: the app followed a link to it without a page load. */
export function isMemberCardData(url: URL, origin: string) {
  return url.origin === origin && url.pathname === `${MEMBER_CARD_PATH}.data`;
}

/**
 * What the server's answer to the card page means for the copy:
 * - `read`: a page; kept if it is a card (`savedCopyOf`), and the copy forgotten if it is not;
 * - `forget`: sent elsewhere (to sign in, say) or refused: this browser may no longer see the card;
 * - `fall-back`: the server failed, so the saved copy answers if there is one;
 * - `leave`: anything else is shown as it is and leaves the copy alone.
 */
export type CardAnswer = "read" | "forget" | "fall-back" | "leave";

export function cardAnswer(response: Pick<Response, "type" | "status" | "redirected">): CardAnswer {
  if (response.type === "opaqueredirect" || response.redirected) return "forget";
  if (response.status === 401 || response.status === 403) return "forget";
  if (response.status >= 500) return "fall-back";
  if (response.status === 200 && response.type === "basic") return "read";
  return "leave";
}

const SCRIPT = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
const TAG = /<(link|img|source)\b[^>]*>/gi;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g;

function attributesOf(tag: string) {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(ATTRIBUTE)) {
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    attributes.set(match[1]!.toLowerCase(), value.replaceAll("&amp;", "&"));
  }
  return attributes;
}

/**
 * The copy to keep of a card page's HTML, or null when the page is not a card. The copy is the
 * page without its scripts, so it never loads the app's code (which a later version of the site
 * replaces) and its links are plain page loads; and its "Saved on this phone" note is shown.
 */
export function savedCopyOf(html: string): string | null {
  const note = new RegExp(`<[a-z]+\\b[^>]*\\s${SAVED_NOTE_ATTRIBUTE}(?=[\\s=/>])[^>]*>`, "i");
  const noteTag = html.match(note)?.[0];
  if (!noteTag) return null;
  const shown = noteTag.replace(/\shidden(?:=(?:""|"hidden"))?(?=[\s/>])/i, "");
  return html
    .replace(noteTag, () => shown)
    .replace(SCRIPT, "")
    .replace(TAG, (tag) => (attributesOf(tag).get("rel")?.toLowerCase() === "modulepreload" ? "" : tag));
}

/**
 * The files of this site the copy needs to look right: its stylesheets, preloaded fonts and
 * images (the member's photo), as absolute URLs. Only scripts' and uploads' folders (`/assets/`,
 * `/media/`) count, so the copy never keeps a page or an API's answer.
 */
export function cardFiles(html: string, pageUrl: string): string[] {
  const origin = new URL(pageUrl).origin;
  const found = new Set<string>();
  const add = (address: string | undefined) => {
    if (!address) return;
    let url: URL;
    try {
      url = new URL(address, pageUrl);
    } catch {
      return;
    }
    if (url.origin !== origin || !/^\/(assets|media)\//.test(url.pathname)) return;
    url.hash = "";
    found.add(url.href);
  };
  for (const match of html.matchAll(TAG)) {
    const attributes = attributesOf(match[0]);
    if (match[1]!.toLowerCase() === "link") {
      const rel = attributes.get("rel")?.toLowerCase().split(/\s+/) ?? [];
      const preloaded = rel.includes("preload") && ["font", "style", "image"].includes(attributes.get("as") ?? "");
      if (rel.includes("stylesheet") || preloaded) add(attributes.get("href"));
      continue;
    }
    add(attributes.get("src"));
    for (const candidate of (attributes.get("srcset") ?? "").split(",")) add(candidate.trim().split(/\s+/)[0]);
  }
  return [...found];
}

const SIGN_OUT_PATHS = new Set(["/logout", "/logout.data"]);
const SETTINGS_PATHS = new Set(["/settings", "/settings.data"]);

/**
 * Whether a request may end this browser's sign-in, so the copy must go: the sign-out form, or a
 * form posted to the settings page (where the account is deleted; `deletesAccount` reads which).
 */
export function signInEnding(request: Pick<Request, "method" | "url">, origin: string): "sign-out" | "settings" | null {
  if (request.method !== "POST") return null;
  const url = new URL(request.url);
  if (url.origin !== origin) return null;
  if (SIGN_OUT_PATHS.has(url.pathname)) return "sign-out";
  if (SETTINGS_PATHS.has(url.pathname)) return "settings";
  return null;
}

/**
 * Whether a settings form asks to delete the account. Only the short forms are read (URL-encoded,
 * as the delete form is); a photo upload is never read into the worker.
 */
export async function deletesAccount(request: Pick<Request, "headers" | "text">) {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return false;
  return new URLSearchParams(await request.text()).get("intent") === "delete";
}
