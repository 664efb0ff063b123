import { memberCardPassData } from "~/features/wallet/member-passes.server";
import {
  appleMemberCardPass,
  appleWalletConfig,
  googleMemberCardLink,
  googleWalletConfig,
} from "~/features/wallet/passes.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/card-wallet";

/**
 * The member's card as a wallet pass (docs/gate.md, "Wallet passes"): the Apple Wallet `.pkpass`
 * file, or a redirect to Google Wallet's save page. Only while the membership has its benefits,
 * and only when the club has set that wallet up; otherwise it is not found.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const apple = params.wallet === "wallet.pkpass" ? appleWalletConfig(env) : null;
  const google = params.wallet === "google-wallet" ? googleWalletConfig(env) : null;
  if (!apple && !google) notFound();
  const data = await memberCardPassData(db, {
    userId: user.id,
    holder: user.name,
    secret: env.AUTH_SECRET,
    now: new Date(),
    timeZone: env.TIME_ZONE,
  });
  if (!data) notFound("There is no member card to add: the membership has lapsed or ended");
  const site = { name: env.SITE_NAME, url: env.SITE_URL };
  if (google) {
    return new Response(null, {
      status: 302,
      headers: { Location: await googleMemberCardLink(data, google, site), "Cache-Control": "private, no-store" },
    });
  }
  const pass = await appleMemberCardPass(data, apple!, site);
  return new Response(new Uint8Array(pass), {
    headers: {
      "Content-Type": "application/vnd.apple.pkpass",
      "Content-Disposition": 'attachment; filename="member-card.pkpass"',
      "Cache-Control": "private, no-store",
    },
  });
}
