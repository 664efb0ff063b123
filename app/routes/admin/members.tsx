import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { confirmIdentity, signedInRecently } from "~/features/accounts/reauth.server";
import { changeMemberDateOfBirth, changeMemberRole, listMembers } from "~/features/admin/members.server";
import { ConfirmRoleChange, MemberRow } from "~/features/admin/members-list";
import {
  MEMBER_SORT_LABELS,
  MembersActionSchema,
  MembersQuerySchema,
  ROLE_AS_NOUN,
  ROLE_FILTER_LABELS,
} from "~/features/admin/schemas";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { Notice } from "~/ui/form";
import { ListPageHeader, ListResults, listHref } from "~/ui/list-page";
import { ListFilter, ListSearch } from "~/ui/list-search";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/members";

export async function loader({ context, url }: Route.LoaderArgs) {
  const you = requireRole({ context, url }, "admin");
  const { db } = context.get(runtimeContext);
  const query = MembersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listMembers(db, { query: query.q, role: query.role, page: query.page, sort: query.sort });
  return { ...list, q: query.q, role: query.role, sort: query.sort, youId: you.id };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const you = requireRole({ context, url }, "admin");
  const submission = parseWithZod(await request.formData(), { schema: MembersActionSchema });
  if (submission.status !== "success") {
    const birth = submission.payload.intent === "set-date-of-birth";
    const message = birth ? Object.values(submission.error ?? {}).flat()[0] : null;
    return data({ error: message ?? "Choose a role from the list.", confirm: null }, { status: 400 });
  }
  const { db } = context.get(runtimeContext);
  if (submission.value.intent === "set-date-of-birth") {
    if (!signedInRecently(you)) {
      return data({ error: "Sign in again to change a member's date of birth.", confirm: null }, { status: 400 });
    }
    const { userId, dateOfBirth, reason } = submission.value;
    const ip = context.get(requestContext).ip;
    const outcome = await changeMemberDateOfBirth(db, { actorId: you.id, userId, dateOfBirth, reason, ip });
    if (!outcome.ok) return data({ error: "That account no longer exists.", confirm: null }, { status: 400 });
    const message = `${outcome.name}'s date of birth is now ${dateOfBirth ?? "not set"}.`;
    return redirectWithFlash(url.pathname + url.search, { kind: "success", message });
  }
  const { userId, role, password } = submission.value;
  const identity = signedInRecently(you)
    ? { ok: true as const }
    : await withinAttemptLimits(confirmIdentity(accountCall(request, context), you, password));
  if (!identity.ok) {
    const problem = identity.reason === "needs-password" ? null : identity.message;
    return data({ error: null, confirm: { userId, role, problem } }, { status: problem ? 400 : 200 });
  }
  const ip = context.get(requestContext).ip;
  const outcome = await changeMemberRole(db, { actorId: you.id, userId, role, ip });
  if (!outcome.ok) {
    const error =
      outcome.reason === "own-role"
        ? "You cannot change your own role. Ask another admin."
        : "That account no longer exists.";
    return data({ error, confirm: null }, { status: 400 });
  }
  const message = `${outcome.name} ${outcome.changed ? "is now" : "already was"} ${ROLE_AS_NOUN[outcome.role]}.`;
  return redirectWithFlash(url.pathname + url.search, { kind: "success", message });
}

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  const { members, total, page, pageCount, q, role, sort, youId } = loaderData;
  const href = (target: number) => listHref({ q, role, sort, page: target }, { role: "all", sort: "newest", page: 1 });
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Admin"
        title="Members & roles"
        intro="Organizers run events, check-in, applications, articles and orders. Admins can also change roles, refund and draw. Every change is recorded in the audit log."
      />

      <ListSearch
        id="member-search"
        label="Search by name or email"
        q={q}
        resetKey={`${q}|${role}|${sort}`}
        className="mt-8"
      >
        <ListFilter id="member-role" name="role" label="Role" value={role} options={ROLE_FILTER_LABELS} />
        <ListFilter id="member-sort" name="sort" label="Order" value={sort} options={MEMBER_SORT_LABELS} />
      </ListSearch>

      {actionData?.confirm ? (
        <ConfirmRoleChange
          {...actionData.confirm}
          name={members.find((member) => member.id === actionData.confirm?.userId)?.name ?? "this member"}
        />
      ) : null}
      {actionData?.error ? (
        <div className="mt-6">
          <Notice kind="error">
            <p>{actionData.error}</p>
          </Notice>
        </div>
      ) : null}

      <ListResults
        total={total}
        noun={["account", "accounts"]}
        q={q}
        showCount
        empty={
          members.length === 0
            ? "No accounts match. Try part of a name or an email address, or choose “All roles”."
            : null
        }
        page={page}
        pageCount={pageCount}
        href={href}
      >
        {members.map((member) => (
          <MemberRow key={member.id} member={member} isYou={member.id === youId} />
        ))}
      </ListResults>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Members & roles");
