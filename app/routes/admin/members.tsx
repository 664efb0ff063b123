import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { confirmIdentity, signedInRecently } from "~/features/accounts/reauth.server";
import { changeMemberRole, listMembers } from "~/features/admin/members.server";
import { ConfirmRoleChange, MemberRow, Pagination } from "~/features/admin/members-list";
import { MembersActionSchema, MembersQuerySchema, ROLE_AS_NOUN, ROLE_FILTER_LABELS } from "~/features/admin/schemas";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { Notice } from "~/ui/form";
import { ListFilter, ListSearch } from "~/ui/list-search";
import { pageTitle } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/members";

export async function loader({ context, url }: Route.LoaderArgs) {
  const you = requireRole({ context, url }, "admin");
  const { db } = context.get(runtimeContext);
  const query = MembersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listMembers(db, { query: query.q, role: query.role, page: query.page });
  return { ...list, q: query.q, role: query.role, youId: you.id };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const you = requireRole({ context, url }, "admin");
  const submission = parseWithZod(await request.formData(), { schema: MembersActionSchema });
  if (submission.status !== "success") {
    return data({ error: "Choose a role from the list.", confirm: null }, { status: 400 });
  }
  const { db } = context.get(runtimeContext);
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
  const { members, total, page, pageCount, q, role, youId } = loaderData;
  const href = (target: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (role !== "all") params.set("role", role);
    if (target > 1) params.set("page", String(target));
    const search = params.toString();
    return search ? `?${search}` : ".";
  };
  return (
    <div className="mx-auto max-w-[1100px]">
      <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Admin</p>
      <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Members &amp; roles</h1>
      <p className="mt-2 max-w-prose text-muted">
        Organizers run events, check-in, applications, articles and orders. Admins can also change roles, refund and
        draw. Every change is recorded in the audit log.
      </p>

      <ListSearch id="member-search" label="Search by name or email" q={q} resetKey={`${q}|${role}`} className="mt-8">
        <ListFilter id="member-role" name="role" label="Role" value={role} options={ROLE_FILTER_LABELS} />
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

      <p className="mt-8 text-sm text-muted" role="status">
        {countOf(total, "account", "accounts")}
        {q ? ` matching “${q}”` : ""}
      </p>
      {members.length === 0 ? (
        <Card as="p" variant="empty" className="mt-3 p-10 text-muted">
          No accounts match. Try part of a name or an email address, or choose “All roles”.
        </Card>
      ) : (
        <Card as="ul" variant="list" className="mt-3">
          {members.map((member) => (
            <MemberRow key={member.id} member={member} isYou={member.id === youId} />
          ))}
        </Card>
      )}
      <Pagination page={page} pageCount={pageCount} href={href} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "Members & roles", "Dashboard") }, { name: "robots", content: "noindex" }];
};
