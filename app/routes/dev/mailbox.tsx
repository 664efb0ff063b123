import { Mail, MessageSquare } from "lucide-react";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { listOutboundMessages, requireMailboxAccess } from "~/server/mail/mailbox.server";
import { ErrorPage } from "~/ui/error-page";
import type { Route } from "./+types/mailbox";

export async function loader({ context }: Route.LoaderArgs) {
  requireMailboxAccess(context.get(requestContext), context.get(userContext));
  const { db, mail, sms } = context.get(runtimeContext);
  return { messages: await listOutboundMessages(db), transports: { mail: mail.name, sms: sms.name } };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  const { messages, transports } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-[1000px] px-4 py-10 sm:px-6">
      <h1 className="wide text-3xl font-extrabold">Mailbox</h1>
      <p className="mt-2 text-muted">
        Every email and text this site sends, newest first. Email goes to{" "}
        {transports.mail === "smtp" ? "SMTP" : "this mailbox"}; texts go to{" "}
        {transports.sms === "twilio" ? "Twilio" : "this mailbox"}. Also as{" "}
        <a className="text-link underline" href="/dev/mailbox.json">
          JSON
        </a>
        .
      </p>
      {messages.length === 0 ? (
        <p className="mt-10 rounded-2xl border border-dashed border-line p-10 text-center text-muted">
          Nothing sent yet. Sign-up emails, receipts and codes will appear here.
        </p>
      ) : (
        <ol className="mt-8 space-y-3">
          {messages.map((message) => (
            <li key={message.id}>
              <details className="rounded-2xl border border-line bg-surface-raised">
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
              </details>
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
