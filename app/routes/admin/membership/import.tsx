import { data, Form } from "react-router";
import {
  checkMemberImport,
  type ImportPreview,
  importMembers,
  memberImportFormSchema,
} from "~/features/membership/member-import.server";
import { tiersForStaff } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Badge, type BadgeTone } from "~/ui/badge";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { Notice, SubmitButton } from "~/ui/form";
import { FileField } from "~/ui/form-fields";
import { countOf, formatCount } from "~/ui/plural";
import { FormPage } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/import";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  const tiers = await tiersForStaff(db, new Date());
  return { tiers: tiers.map((tier) => tier.name) };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const form = memberImportFormSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!form.success) return data({ error: form.error.issues[0]!.message, preview: null }, { status: 400 });
  const call = { timeZone: env.TIME_ZONE, now: new Date(), secret: env.AUTH_SECRET };
  if (form.data.intent === "check") {
    const checked = await checkMemberImport(db, form.data.file ?? null, call);
    if (!checked.ok) return data({ error: checked.message, preview: null }, { status: 400 });
    return { error: null, preview: checked.preview };
  }
  const { text, digest } = form.data;
  const imported = await importMembers(db, { text, digest, actorId: user.id }, call);
  if (!imported.ok) return data({ error: imported.message, preview: imported.preview ?? null }, { status: 400 });
  const { join, rejoin, extend } = imported.totals;
  return redirectWithFlash("/admin/membership/members", {
    kind: "success",
    message: `Imported ${countOf(join + rejoin + extend, "member", "members")}: ${formatCount(join + rejoin)} new, ${formatCount(extend)} extended.`,
  });
}

export default function ImportMembers({ loaderData, actionData }: Route.ComponentProps) {
  const preview = actionData?.preview ?? null;
  const error = actionData?.error ?? null;
  return (
    <FormPage
      wide
      back={{ to: "/admin/membership/members", label: "Members" }}
      title="Import members"
      intro="Bring in members from a spreadsheet. Check the file first: nothing is saved until you import it."
    >
      <Card className="space-y-3 p-5 sm:p-6">
        <h2 className="wide text-lg font-extrabold">The file</h2>
        <p>
          A CSV file (in a spreadsheet: Save as, CSV UTF-8) with a first row naming the columns <strong>email</strong>,{" "}
          <strong>name</strong>, <strong>tier</strong> and <strong>valid until</strong>, and one member a row, at most
          5,000 rows and 1 MB.
        </p>
        <ul className="list-disc space-y-1 pl-5 text-muted">
          <li>Each member needs an account with that email: ask anyone without one to sign up first.</li>
          <li>
            Tier: the name of a tier
            {loaderData.tiers.length > 0 ? ` (${loaderData.tiers.join(", ")})` : ""}. Valid until: the last day, like
            2027-12-31.
          </li>
          <li>
            Imported memberships are not paid on the site: when renewal comes, the member renews by paying on the
            membership page.
          </li>
        </ul>
        <Form method="post" encType="multipart/form-data" className="space-y-4 pt-2">
          <input type="hidden" name="intent" value="check" />
          <FileField
            meta={{ id: "import-file", name: "file", errorId: "import-file-error", required: true }}
            label="CSV file"
            accept=".csv,text/csv"
          />
          <SubmitButton fit intent="check" pendingLabel="Checking…">
            Check file
          </SubmitButton>
        </Form>
      </Card>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {preview ? <ImportCheck preview={preview} /> : null}
    </FormPage>
  );
}

const OUTCOMES: Record<ImportPreview["rows"][number]["outcome"], { label: string; tone: BadgeTone }> = {
  join: { label: "Gets membership", tone: "success" },
  rejoin: { label: "Gets membership", tone: "success" },
  extend: { label: "Extended", tone: "success" },
  unchanged: { label: "Unchanged", tone: "quiet" },
  refused: { label: "Refused", tone: "danger" },
};

function ImportCheck({ preview }: { preview: ImportPreview }) {
  const { totals } = preview;
  const figures = [
    ["Get a membership", totals.join + totals.rejoin],
    ["Extended", totals.extend],
    ["Already up to date", totals.unchanged],
    ["Refused", totals.refused],
  ] as const;
  return (
    <section aria-labelledby="import-check" className="space-y-4">
      <h2 id="import-check" className="wide text-xl font-extrabold">
        What importing this file does
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {figures.map(([label, count]) => (
          <Card key={label} className="p-4">
            <dt className="text-sm font-semibold text-muted">{label}</dt>
            <dd className="wide tabular mt-1 text-2xl font-black">{formatCount(count)}</dd>
          </Card>
        ))}
      </dl>
      <Card className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Each row of the file and what importing it does</caption>
          <thead className="text-muted">
            <tr>
              {["Row", "Member", "What happens"].map((column) => (
                <th key={column} scope="col" className="px-4 py-2 font-semibold">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {preview.rows.map((row) => (
              <tr key={row.line}>
                <td className="tabular px-4 py-2">{row.line}</td>
                <td className="px-4 py-2">
                  <span className="block font-semibold">{row.name || "—"}</span>
                  <span className="block text-muted">{row.email}</span>
                </td>
                <td className="px-4 py-2">
                  <Badge tone={OUTCOMES[row.outcome].tone}>{OUTCOMES[row.outcome].label}</Badge>{" "}
                  <span className="mt-1 block">{row.message}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {totals.importable > 0 ? (
        <Form method="post" encType="multipart/form-data" className="space-y-3">
          <input type="hidden" name="intent" value="import" />
          <input type="hidden" name="text" value={preview.text} />
          <input type="hidden" name="digest" value={preview.digest} />
          {totals.refused > 0 ? (
            <p className="text-muted">Refused rows are left out: fix them and import them in another file.</p>
          ) : null}
          <SubmitButton fit intent="import" pendingLabel="Importing…">
            {`Import ${countOf(totals.importable, "member", "members")}`}
          </SubmitButton>
        </Form>
      ) : (
        <p className="text-muted">No row of this file can be imported: fix the rows above and check it again.</p>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Import members", "Membership");
