import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { changeMembership, memberChangeSchema, membershipForStaff } from "~/features/membership/member-changes.server";
import { membershipDate } from "~/features/membership/membership-labels";
import { MembershipStateBadge } from "~/features/membership/membership-state-badge";
import { tiersForStaff } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { isUuid } from "~/server/db/uuid";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { Field, FormErrors, Notice, SubmitButton } from "~/ui/form";
import { SelectField } from "~/ui/form-fields";
import { type SubmissionReply, useLightForm } from "~/ui/light-form";
import { notFound } from "~/ui/not-found";
import { FormPage } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";
import type { Route } from "./+types/member";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const membership = isUuid(params.membershipId)
    ? await membershipForStaff(db, params.membershipId, now, env.TIME_ZONE)
    : null;
  if (!membership) notFound("This membership could not be found");
  const tiers = await tiersForStaff(db, now);
  const date = (instant: Date | null) => (instant ? membershipDate(instant, env.TIME_ZONE) : null);
  return {
    membership: {
      ...membership,
      paidUntilLabel: date(membership.paidUntil),
      joinedLabel: date(membership.joinedAt),
      renewsLabel: date(membership.renewsOn),
      endedLabel: date(membership.endedAt),
    },
    tiers: tiers.map((tier) => ({
      value: tier.id,
      label: tier.capacity === null ? tier.name : `${tier.name} (${tier.members} of ${tier.capacity} places taken)`,
    })),
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  if (!isUuid(params.membershipId)) notFound("This membership could not be found");
  const { db, env } = context.get(runtimeContext);
  const submission = parseWithZod(await readForm(request), { schema: memberChangeSchema });
  const intent = String(submission.payload.intent ?? "");
  if (submission.status !== "success") return invalidReply(intent, submission);
  const change = { membershipId: params.membershipId, actorId: user.id, now: new Date(), timeZone: env.TIME_ZONE };
  const outcome = await changeMembership(db, { ...change, change: submission.value });
  if (!outcome.ok) return refusedReply(intent, submission, outcome);
  return redirectWithFlash(url.pathname, { kind: "success", message: outcome.message });
}

export default function MemberMembership({ loaderData, actionData }: Route.ComponentProps) {
  const { membership, tiers } = loaderData;
  const replyTo = (intent: string) =>
    actionData?.intent === intent ? (actionData.result as SubmissionReply) : undefined;
  const facts = [
    ["Tier", membership.tierName],
    ["People it covers", [membership.name, ...membership.people].join(", ")],
    ["Paid until", membership.paidUntilLabel],
    ["Renews", membership.renewsLabel ? `On ${membership.renewsLabel}` : "No: renewal is off"],
    ["Joined", membership.joinedLabel],
  ] as const;
  return (
    <FormPage
      back={{ to: "/admin/membership/members", label: "Members" }}
      title={membership.name}
      badge={<MembershipStateBadge state={membership.state} />}
      intro={membership.email}
    >
      <Card as="section" aria-labelledby="membership-facts" className="p-5 sm:p-6">
        <h2 id="membership-facts" className="wide text-lg font-extrabold">
          Membership
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
          {facts.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-semibold text-muted">{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      {membership.endedLabel ? (
        <Notice kind="info">
          <p>
            Ended on {membership.endedLabel}
            {membership.endReason ? ` (${membership.endReason})` : ""}. It cannot be changed: the member can join again
            from the membership page.
          </p>
        </Notice>
      ) : (
        <>
          <ChangeForm membership={membership} tiers={tiers} lastResult={replyTo("change")} />
          <EndForm lastResult={replyTo("end")} />
        </>
      )}
    </FormPage>
  );
}

const REASON = { required: true, maxLength: 300 };

function ChangeForm({
  membership,
  tiers,
  lastResult,
}: {
  membership: { tierId: string; validUntil: string };
  tiers: { value: string; label: string }[];
  lastResult?: SubmissionReply;
}) {
  const [form, fields] = useLightForm<{ tierId: string; validUntil: string; reason: string }>({
    lastResult,
    constraint: { tierId: { required: true }, validUntil: { required: true }, reason: REASON },
  });
  return (
    <Card as="section" aria-labelledby="membership-change" className="p-5 sm:p-6">
      <h2 id="membership-change" className="wide text-lg font-extrabold">
        Change the tier or dates
      </h2>
      <p className="mt-1 text-sm text-muted">The change and its reason are kept in the audit log.</p>
      <Form method="post" {...form.props} className="mt-5 space-y-5">
        <input type="hidden" name="intent" value="change" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField
          meta={{ ...fields.tierId, initialValue: fields.tierId.initialValue ?? membership.tierId }}
          label="Tier"
          options={tiers}
        />
        <Field
          meta={{ ...fields.validUntil, initialValue: fields.validUntil.initialValue ?? membership.validUntil }}
          label="Valid until"
          type="date"
          hint="The last day of the membership: it runs to the end of this day."
        />
        <Field meta={fields.reason} label="Reason" hint="Such as: moved to the family tier at the AGM." />
        <SubmitButton fit intent="change" pendingLabel="Saving…">
          Save change
        </SubmitButton>
      </Form>
    </Card>
  );
}

function EndForm({ lastResult }: { lastResult?: SubmissionReply }) {
  const [form, fields] = useLightForm<{ reason: string }>({ lastResult, constraint: { reason: REASON } });
  return (
    <section aria-labelledby="membership-end" className="rounded-2xl border border-red-700/30 p-5 sm:p-6">
      <h2 id="membership-end" className="wide text-lg font-extrabold">
        End the membership now
      </h2>
      <p className="mt-1 text-sm text-muted">
        The card stops working at once and renewal stops. Nothing is refunded: refund the order from its page if money
        should go back.
      </p>
      <details open={Boolean(lastResult)} className="mt-3">
        <summary className="cursor-pointer text-sm font-bold text-red-700 dark:text-red-300">End it now…</summary>
        <Form method="post" {...form.props} className="mt-3 space-y-3">
          <input type="hidden" name="intent" value="end" />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field meta={fields.reason} label="Reason" />
          <SubmitButton fit intent="end" variant="danger" pendingLabel="Ending…">
            End the membership
          </SubmitButton>
        </Form>
      </details>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  dashboardMeta(matches, data?.membership.name ?? "Member", "Members", "Membership");
