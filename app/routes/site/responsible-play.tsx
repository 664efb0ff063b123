import { CREDIT_CARD_MONTHLY_CAP } from "~/features/play/play-rules";
import { ResponsiblePlayPage } from "~/features/play/responsible-play-page";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { formatMoney } from "~/ui/money";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/responsible-play";

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  return {
    siteName: env.SITE_NAME,
    // Unset, complaints go to the address the site sends its email from.
    complaintsEmail: env.COMPLAINTS_EMAIL ?? addressOf(env.MAIL_FROM),
    creditCardCap: formatMoney(CREDIT_CARD_MONTHLY_CAP, "GBP"),
  };
}

/** "Club <hello@club.example>" → "hello@club.example". */
function addressOf(mailbox: string) {
  return /<([^>]+)>/.exec(mailbox)?.[1] ?? mailbox.trim();
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function ResponsiblePlay({ loaderData }: Route.ComponentProps) {
  return <ResponsiblePlayPage facts={loaderData} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Responsible play") },
  {
    name: "description",
    content: `How ${siteNameOf(matches)} keeps prize draws safe and fair: age and phone checks, spending limits, breaks, self-exclusion, free postal entry, and how to complain.`,
  },
];
