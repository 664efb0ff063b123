import { Mail, MessageSquare } from "lucide-react";
import { listOutboundMessages } from "~/server/mail/mailbox.server";
import { Card } from "~/ui/card";
import { ErrorPage } from "~/ui/error-page";
import type { Route } from "./+types/mailbox";
import { openMailbox } from "./mailbox-access.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  const runtime = await openMailbox(request, context);
  return { messages: await listOutboundMessages(runtime.db) };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  const { messages } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-[1000px] px-4 py-10 sm:px-6">
      <h1 className="wide text-3xl font-extrabold">Mailbox</h1>
      <p className="mt-2 text-muted">
        Every email and text this site has sent in the last day, newest first: with no email or text provider
        configured, they come here instead. Also as{" "}
        <a className="text-link underline" href="/dev/mailbox.json">
          JSON
        </a>
        .
      </p>
      {messages.length === 0 ? (
        <Card as="p" variant="empty" className="mt-10 p-10 text-muted">
          Nothing sent yet. Sign-up emails, receipts and codes will appear here.
        </Card>
      ) : (
        <ol className="mt-8 space-y-3">
          {messages.map((message) => (
            <li key={message.id}>
              <Card as="details">
                <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 p-4">
                  {message.channel === "email" ? (
                    <Mail aria-hidden className="size-4" />
                  ) : (
                    <MessageSquare aria-hidden className="size-4" />
                  )}
                  <span className="font-semibold">{message.subject ?? "Text message"}</span>
                  <span className="text-sm text-muted">to {message.to}</span>
                  <time className="ml-auto text-sm tabular text-muted" dateTime={message.sentAt}>
                    {new Date(message.sentAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
                  </time>
                </summary>
                <div className="border-t border-line p-4">
                  {message.html ? (
                    <iframe
                      title={`Email: ${message.subject ?? ""}`}
                      sandbox=""
                      srcDoc={message.html}
                      className="h-[28rem] w-full rounded-lg bg-white"
                    />
                  ) : (
                    <pre className="whitespace-pre-wrap font-sans text-sm">{message.text}</pre>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Mailbox" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
