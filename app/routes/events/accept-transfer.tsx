import { data, Link } from "react-router";
import { acceptTransfer, transferByToken } from "~/features/transfers/transfers.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { pageTitle } from "~/ui/page-title";
import type { PageHandle } from "~/ui/site";
import type { Route } from "./+types/accept-transfer";

/**
 * The link in a transfer email: what is being passed on and by whom, then "Accept the ticket"
 * for a signed-in member, or sign-in and sign-up links that come back here. Opening the link
 * changes nothing (mail scanners open links); accepting is a POST.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const user = context.get(userContext);
  const transfer = await transferByToken(db, { token: params.token, viewerId: user?.id ?? null, now: new Date() });
  return { transfer, signedIn: Boolean(user) };
}

export async function action({ context, params, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db, env, outbox } = context.get(runtimeContext);
  const outcome = await acceptTransfer(db, {
    token: params.token,
    userId: user.id,
    now: new Date(),
    brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL },
  });
  if (!outcome.ok) return data({ message: outcome.message }, { status: 400 });
  if (outcome.email) await outbox.sendEmail(outcome.email);
  return redirectWithFlash("/members/events", {
    kind: "success",
    message: `Your ticket for ${outcome.eventTitle} is here, with its own QR code.`,
  });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const handle: PageHandle = { hydrate: false };

export default function AcceptTransfer({ loaderData, actionData, params }: Route.ComponentProps) {
  const { transfer, signedIn } = loaderData;
  const back = encodeURIComponent(`/tickets/accept/${params.token}`);
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-14 sm:px-6">
      <h1 className="wide text-3xl font-black sm:text-4xl">A ticket for you</h1>
      <Card className="mt-8 space-y-4 p-6">
        {!transfer ? (
          <p>This link is not valid. Ask the person who sent it to check the address, or to send the ticket again.</p>
        ) : (
          <>
            <p>
              <strong>{transfer.fromName}</strong> is passing on a <strong>{transfer.ticketTypeName}</strong> ticket for{" "}
              <Link to={`/events/${transfer.eventSlug}`} className="text-link underline">
                {transfer.eventTitle}
              </Link>{" "}
              ({transfer.when}).
            </p>
            {actionData ? (
              <p role="alert" className="font-semibold text-red-700 dark:text-red-300">
                {actionData.message}
              </p>
            ) : null}
            <TransferState transfer={transfer} signedIn={signedIn} back={back} />
          </>
        )}
      </Card>
    </main>
  );
}

function TransferState({
  transfer,
  signedIn,
  back,
}: {
  transfer: NonNullable<Route.ComponentProps["loaderData"]["transfer"]>;
  signedIn: boolean;
  back: string;
}) {
  if (transfer.status === "accepted") {
    return transfer.acceptedByViewer ? (
      <p>
        You accepted it. It is in{" "}
        <Link to="/members/events" className="text-link underline">
          My tickets
        </Link>
        .
      </p>
    ) : (
      <p>This ticket was already accepted.</p>
    );
  }
  if (transfer.status === "cancelled") return <p>{transfer.fromName} took this ticket back, so it stays with them.</p>;
  if (transfer.status === "lapsed") return <p>This transfer ran out before it was accepted.</p>;
  if (transfer.sentByViewer) {
    return <p>You sent this ticket. It moves when {transfer.toName} accepts it; until then it is yours.</p>;
  }
  if (!signedIn) {
    return (
      <div className="space-y-3">
        <p>Sign in, or create an account, to accept it by {transfer.closesAt}.</p>
        <p className="flex flex-wrap gap-3">
          <Link
            to={`/login?redirectTo=${back}`}
            className="rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
          >
            Sign in to accept
          </Link>
          <Link
            to={`/signUp?redirectTo=${back}`}
            className="rounded-full border-2 border-text px-6 py-2.5 font-bold hover:bg-surface-sunken"
          >
            Create an account
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form method="post" className="space-y-3">
      <p>
        Accept it by {transfer.closesAt}. It will be yours under your name, with its own QR code, and the sender’s copy
        stops working.
      </p>
      <button
        type="submit"
        className="rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
      >
        Accept the ticket
      </button>
    </form>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Accept a ticket") },
  { name: "robots", content: "noindex" },
];
