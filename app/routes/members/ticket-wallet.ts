import { memberTicketPass } from "~/features/wallet/member-passes.server";
import {
  appleTicketPass,
  appleWalletConfig,
  googleTicketLink,
  googleWalletConfig,
} from "~/features/wallet/passes.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/ticket-wallet";

/**
 * One of the member's tickets as a wallet pass (docs/gate.md, "Wallet passes"): the Apple Wallet
 * `.pkpass` file, or a redirect to Google Wallet's save page. Only the ticket's holder gets it,
 * only while it admits and its event has not ended, and only when the club has set that wallet up;
 * otherwise it is not found.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const wallet = params.wallet;
  const apple = wallet === "wallet.pkpass" ? appleWalletConfig(env) : null;
  const google = wallet === "google-wallet" ? googleWalletConfig(env) : null;
  if (!apple && !google) notFound();
  const data = await memberTicketPass(db, {
    ticketId: params.ticketId,
    userId: user.id,
    secret: env.AUTH_SECRET,
    now: new Date(),
  });
  if (!data) notFound("This ticket has no pass: it is not yours, no longer admits, or its event is over");
  const site = { name: env.SITE_NAME, url: env.SITE_URL };
  if (google) {
    return new Response(null, {
      status: 302,
      headers: { Location: await googleTicketLink(data, google, site), "Cache-Control": "private, no-store" },
    });
  }
  const pass = await appleTicketPass(data, apple!, site);
  return new Response(new Uint8Array(pass), {
    headers: {
      "Content-Type": "application/vnd.apple.pkpass",
      "Content-Disposition": `attachment; filename="ticket-${data.ticketId.slice(0, 8)}.pkpass"`,
      "Cache-Control": "private, no-store",
    },
  });
}
