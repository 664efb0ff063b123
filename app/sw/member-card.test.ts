import { describe, expect, it } from "vitest";
import {
  cardAnswer,
  cardFiles,
  deletesAccount,
  isMemberCardData,
  isMemberCardPage,
  savedCopyOf,
  signInEnding,
} from "./member-card";

const ORIGIN = "https://club.example";
const at = (path: string) => new URL(path, ORIGIN);

/** A card page as the server draws it: head links, the card with its hidden note, the app's scripts. */
const CARD_PAGE = [
  '<!DOCTYPE html><html lang="en"><head>',
  '<link nonce="n1" rel="stylesheet" href="/assets/app-B7TL4T6W.css" data-precedence="default"/>',
  '<link nonce="n1" rel="preload" href="/assets/archivo-5NaYS3JL.woff2" as="font" type="font/woff2" crossorigin="anonymous"/>',
  '<link nonce="n1" rel="manifest" href="/manifest.webmanifest"/>',
  '<link nonce="n1" rel="apple-touch-startup-image" href="/splash/splash-1290x2796.png"/>',
  '<link fetchpriority="low" rel="modulepreload" href="/assets/entry.client-D-1FJ9Wv.js" nonce="n1"/>',
  "</head><body>",
  '<article aria-label="Pitlane member card">',
  '<picture class="shrink-0"><source type="image/avif" srcSet="/media/avatars/abc.avif"/>',
  '<img src="/media/avatars/abc.webp" alt="" width="56" height="56"/></picture>',
  '<div role="img" aria-label="QR code of your member card"><svg viewBox="0 0 29 29"></svg></div>',
  '<p data-saved-card-note="" hidden="" class="rounded-xl p-3 print:hidden">',
  'Saved on this phone: last updated <time dateTime="2026-12-03T20:30:00.000Z">3 December 2026 at 20:30</time></p>',
  "</article>",
  '<script nonce="n1">window.__reactRouterContext = {"basename":"/"};</script>',
  '<script nonce="n1" type="module" async="">import "/assets/entry.client-D-1FJ9Wv.js";</script>',
  "</body></html>",
].join("");

describe("which requests are about the card", () => {
  it("keeps the card page at its one address, without a query string or another origin", () => {
    expect(isMemberCardPage(at("/members/card"), ORIGIN)).toBe(true);
    expect(isMemberCardPage(at("/members/card?utm_source=email"), ORIGIN)).toBe(false);
    expect(isMemberCardPage(at("/members/card/"), ORIGIN)).toBe(false);
    expect(isMemberCardPage(at("/members/membership"), ORIGIN)).toBe(false);
    expect(isMemberCardPage(new URL("https://elsewhere.example/members/card"), ORIGIN)).toBe(false);
  });

  it("knows the app's data request for the card page", () => {
    expect(isMemberCardData(at("/members/card.data"), ORIGIN)).toBe(true);
    expect(isMemberCardData(at("/members/card.data?_routes=routes%2Fmembers%2Fcard"), ORIGIN)).toBe(true);
    expect(isMemberCardData(at("/members/card"), ORIGIN)).toBe(false);
  });
});

describe("the server's answer to the card page", () => {
  const answer = (type: ResponseType, status: number, redirected = false) => cardAnswer({ type, status, redirected });

  it("reads a page it drew", () => {
    expect(answer("basic", 200)).toBe("read");
  });

  it("forgets the copy when the browser is sent to sign in or refused", () => {
    // A page load's redirect reaches the worker unopened, with no status to read.
    expect(answer("opaqueredirect", 0)).toBe("forget");
    expect(answer("basic", 200, true)).toBe("forget");
    expect(answer("basic", 401)).toBe("forget");
    expect(answer("basic", 403)).toBe("forget");
  });

  it("falls back on the copy when the server fails", () => {
    expect(answer("basic", 500)).toBe("fall-back");
    expect(answer("basic", 503)).toBe("fall-back");
  });

  it("leaves the copy alone for any other answer, and never keeps one", () => {
    expect(answer("basic", 404)).toBe("leave");
    expect(answer("basic", 429)).toBe("leave");
    expect(answer("basic", 204)).toBe("leave");
    expect(answer("opaque", 0)).toBe("leave");
  });
});

describe("the copy kept of a card page", () => {
  const copy = savedCopyOf(CARD_PAGE)!;

  it("shows the saved note", () => {
    expect(copy).toContain(
      '<p data-saved-card-note="" class="rounded-xl p-3 print:hidden">Saved on this phone: last updated',
    );
  });

  it("has none of the app's scripts, so its links are plain page loads", () => {
    expect(copy).not.toMatch(/<script/i);
    expect(copy).not.toContain("modulepreload");
    expect(copy).not.toContain("__reactRouterContext");
  });

  it("keeps the card, its QR and its stylesheet", () => {
    expect(copy).toContain('<div role="img" aria-label="QR code of your member card"><svg');
    expect(copy).toContain('rel="stylesheet" href="/assets/app-B7TL4T6W.css"');
  });

  it("is not made of a page that is not a card (no membership)", () => {
    expect(savedCopyOf(CARD_PAGE.replace(/<p data-saved-card-note[\s\S]*?<\/p>/, ""))).toBeNull();
    expect(savedCopyOf(CARD_PAGE.replace("data-saved-card-note", "data-saved-card-notes"))).toBeNull();
  });

  it("shows the note whatever the order of its attributes", () => {
    const page = '<p class="x" hidden data-saved-card-note>Saved</p><p hidden>other</p>';
    expect(savedCopyOf(page)).toBe('<p class="x" data-saved-card-note>Saved</p><p hidden>other</p>');
  });
});

describe("the files the copy needs", () => {
  it("lists its stylesheet, preloaded font and the member's photo, nothing else", () => {
    expect(cardFiles(savedCopyOf(CARD_PAGE)!, `${ORIGIN}/members/card`)).toEqual([
      `${ORIGIN}/assets/app-B7TL4T6W.css`,
      `${ORIGIN}/assets/archivo-5NaYS3JL.woff2`,
      `${ORIGIN}/media/avatars/abc.avif`,
      `${ORIGIN}/media/avatars/abc.webp`,
    ]);
  });

  it("takes only this site's assets and uploads", () => {
    const page = [
      '<link rel="stylesheet" href="https://cdn.example/assets/x.css">',
      '<img src="https://bucket.example/media/avatars/a.webp">',
      '<img src="/api/avatar?id=1">',
      '<img srcset="/media/a-1x.webp 1x, /media/a-2x.webp 2x">',
      '<link rel="preload" as="script" href="/assets/x.js">',
    ].join("");
    expect(cardFiles(page, `${ORIGIN}/members/card`)).toEqual([
      `${ORIGIN}/media/a-1x.webp`,
      `${ORIGIN}/media/a-2x.webp`,
    ]);
  });
});

describe("ending the sign-in", () => {
  const post = (path: string, body?: string, type = "application/x-www-form-urlencoded;charset=UTF-8") =>
    new Request(at(path), { method: "POST", body, headers: { "Content-Type": type } });

  it("signing out forgets the copy, with or without the app's scripts", () => {
    expect(signInEnding(post("/logout"), ORIGIN)).toBe("sign-out");
    expect(signInEnding(post("/logout.data"), ORIGIN)).toBe("sign-out");
    expect(signInEnding(new Request(at("/logout")), ORIGIN)).toBeNull();
    expect(signInEnding(post("/login"), ORIGIN)).toBeNull();
  });

  it("reads a settings form for deleting the account", async () => {
    expect(signInEnding(post("/settings.data"), ORIGIN)).toBe("settings");
    expect(await deletesAccount(post("/settings", "confirmation=sam%40example.com&intent=delete"))).toBe(true);
    expect(await deletesAccount(post("/settings.data", "intent=notifications&news=on"))).toBe(false);
  });

  it("never reads an upload", async () => {
    const upload = post("/settings", "intent=delete", "multipart/form-data; boundary=x");
    expect(await deletesAccount(upload)).toBe(false);
    expect(upload.bodyUsed).toBe(false);
  });
});
