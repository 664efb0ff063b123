import { AsyncLocalStorage } from "node:async_hooks";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { documentCacheControl } from "./server/cache.server";
import { requestContext, userContext } from "./server/context.server";
import { bringsFlash } from "./server/flash.server";
import { getLog } from "./server/log.server";
import { beforeBodyEnd, lowPriorityModulePreloads, scriptsAfterFirstPaint } from "./server/module-preloads.server";
import { STORABLE_HEADER } from "./server/page-cache.server";
import { errorPageFailureHtml } from "./ui/error-page-failure";
import { intlMemoBlock, recordIntlAnswers } from "./ui/intl-memo";
import { NonceProvider } from "./ui/nonce";

export { answerPaymentNotification, createLoadContext, demoSignIns, startApp } from "./app.server";
export { registerAppMetrics } from "./app-metrics.server";
export { pagesShowing } from "./page-cache-purges.server";

export const streamTimeout = 10_000;

// What each page's formatting helpers answered, per request, for the page to carry (ui/intl-memo.ts).
const intlAnswers = new AsyncLocalStorage<Map<string, unknown>>();
recordIntlAnswers(() => intlAnswers.getStore());

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(requestContext);
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  const cacheControl = responseHeaders.get("Cache-Control");
  const publicPage = isShared(cacheControl);
  // A public page seen by a visitor who is not signed in and shown no flash message is the same
  // for every such visitor: the page cache may keep it (without this response's nonce;
  // docs/page-cache.md).
  if (publicPage && !loadContext.get(userContext) && !bringsFlash(request)) {
    responseHeaders.set(STORABLE_HEADER, "public");
  }
  responseHeaders.set("Cache-Control", documentCacheControl(cacheControl));

  const answers = new Map<string, unknown>();
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    const { pipe, abort } = intlAnswers.run(answers, () =>
      renderToPipeableStream(
        <NonceProvider value={nonce}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </NonceProvider>,
        {
          nonce,
          // Sections whose code loads after the page's (app/ui/later.ts) sit in Suspense
          // boundaries that are complete when the shell is: React would send those past its
          // first 12.8 kB hidden, shown by a script, so without JavaScript they never appear.
          // Complete boundaries stay in place; ones still waiting stream as usual.
          progressiveChunkSize: Number.MAX_SAFE_INTEGER,
          [waitForAll ? "onAllReady" : "onShellReady"]() {
            shellRendered = true;
            // A public page starts its scripts once its cover is painted (ADR 0029).
            const body = publicPage ? scriptsAfterFirstPaint(nonce) : lowPriorityModulePreloads();
            const page = body.pipe(beforeBodyEnd(() => intlMemoBlock(answers, nonce)));
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            resolve(new Response(createReadableStreamFromReadable(page), { headers: responseHeaders, status }));
            pipe(body);
          },
          // When the error page itself cannot be shown, a plain last-resort page is, with no scripts.
          onShellError(error: unknown) {
            getLog().error({ err: error }, "the page and its error page failed to render");
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            resolve(new Response(errorPageFailureHtml(nonce), { headers: responseHeaders, status: 500 }));
          },
          onError(error: unknown) {
            status = 500;
            if (shellRendered) getLog().error({ err: error }, "render error");
          },
        },
      ),
    );
    setTimeout(abort, streamTimeout + 1000);
    void reject;
  });
}

function isShared(cacheControl: string | null) {
  return Boolean(cacheControl && /\bpublic\b/i.test(cacheControl) && !/\b(private|no-store)\b/i.test(cacheControl));
}

/**
 * A page's data (`.data`, a navigation in the browser) that carries a flash message is this
 * visitor's own, whatever the page's headers say: a CDN or the page cache keeping it would show
 * one visitor's message to the next (docs/page-cache.md).
 */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  if (bringsFlash(request)) response.headers.set("Cache-Control", "private, no-store");
  return response;
};

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  getLog().error({ err: error, url: request.url }, "unhandled error");
};
