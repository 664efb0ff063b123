import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { cancelPendingEntryOrders } from "~/features/orders/cancel.server";
import { formatPlayInstant } from "~/features/play/play-rules";
import { playStatus, setSpendLimits, takeBreak } from "~/features/play/play-settings.server";
import { PlaySettingsSchema } from "~/features/play/schemas";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { formatMoney, moneyInputValue } from "~/ui/money";
import { plural } from "~/ui/plural";
import type { Route } from "./+types/responsible-play";
import {
  CoolOffSection,
  ExclusionSection,
  HelpSection,
  LimitsSection,
  type LimitsView,
} from "./responsible-play/play-sections";

const PAGE = "/settings/responsiblePlay";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const { settings, spend, left, blocked } = await playStatus(db, user.id, now, env.TIME_ZONE);
  const money = (minor: number) => formatMoney(minor, env.CURRENCY);
  const limit = (minor: number | null) => (minor === null ? "no limit" : money(minor));
  const when = (instant: Date | null) => (instant && instant > now ? formatPlayInstant(instant, env.TIME_ZONE) : null);
  const limits: LimitsView = {
    weekly: limit(settings.weekly),
    monthly: limit(settings.monthly),
    weeklyInput: settings.weekly === null ? "" : moneyInputValue(settings.weekly),
    monthlyInput: settings.monthly === null ? "" : moneyInputValue(settings.monthly),
    spentWeek: money(spend.week),
    spentMonth: money(spend.month),
    leftWeek: left.week === null ? null : money(left.week),
    leftMonth: left.month === null ? null : money(left.month),
    pending: settings.pending
      ? {
          weekly: limit(settings.pending.weekly),
          monthly: limit(settings.pending.monthly),
          from: formatPlayInstant(new Date(settings.pending.from), env.TIME_ZONE),
        }
      : null,
  };
  return {
    limits,
    coolOffUntil: when(settings.coolOffUntil),
    excludedUntil: when(settings.excludedUntil),
    blocked: blocked?.message ?? null,
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: PlaySettingsSchema });
  if (submission.status !== "success") {
    return data({ intent: String(formData.get("intent") ?? ""), result: submission.reply() }, { status: 400 });
  }
  const { value } = submission;
  const now = new Date();
  const saved = (message: string) => redirectWithFlash(PAGE, { kind: "success", message });
  if (value.intent === "limits") {
    const next = await setSpendLimits(db, { userId: user.id, limits: value, now });
    return saved(
      next.pending
        ? `Saved. Any lower limit applies now; the higher limit applies on ${formatPlayInstant(new Date(next.pending.from), env.TIME_ZONE)}.`
        : "Your spending limits are saved.",
    );
  }
  const outcome = await takeBreak(db, {
    userId: user.id,
    now,
    timeZone: env.TIME_ZONE,
    ...(value.intent === "cool-off"
      ? { kind: "cool-off" as const, choice: value.period }
      : { kind: "exclusion" as const, choice: value.period }),
  });
  if (!outcome.ok) {
    return data({ intent: value.intent, result: submission.reply({ formErrors: [outcome.message] }) }, { status: 400 });
  }
  const until = formatPlayInstant(outcome.until, env.TIME_ZONE);
  const what = value.intent === "cool-off" ? "your break from prize draws" : "your self-exclusion from prize draws";
  const cancelled = await cancelPendingEntryOrders(db, {
    userId: user.id,
    reason: `Cancelled because ${what} began before it was paid`,
    now,
  });
  const orders =
    cancelled > 0
      ? ` Your unpaid ${plural(cancelled, "order", "orders")} for entries ${plural(cancelled, "was", "were")} cancelled.`
      : "";
  return saved(
    (value.intent === "cool-off"
      ? `Your break from prize draws runs until ${until}.`
      : `You are excluded from prize draws until ${until}.`) + orders,
  );
}

export default function ResponsiblePlay({ loaderData, actionData }: Route.ComponentProps) {
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="wide text-3xl font-black sm:text-4xl">Responsible play</h1>
        <p className="text-muted">
          Prize draws should stay fun. Set limits on what you spend, take a break, or exclude yourself.
        </p>
      </header>
      {loaderData.blocked ? (
        <p role="status" className="rounded-xl border border-line bg-surface-raised p-4 font-semibold">
          {loaderData.blocked}.
        </p>
      ) : null}
      <LimitsSection view={loaderData.limits} lastResult={resultFor("limits")} />
      <CoolOffSection until={loaderData.coolOffUntil} lastResult={resultFor("cool-off")} />
      <ExclusionSection until={loaderData.excludedUntil} lastResult={resultFor("exclude")} />
      <HelpSection />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Responsible play" }, { name: "robots", content: "noindex" }];
