import { Form, Link, useNavigation } from "react-router";
import { Badge, type BadgeTone } from "~/ui/badge";
import { useSite } from "~/ui/site";
import { ROLE_AS_NOUN, ROLE_LABELS, type RoleName } from "./schemas";

export type MemberSummary = {
  id: string;
  name: string;
  email: string;
  handle: string | null;
  role: RoleName;
  emailVerified: boolean;
  createdAt: Date;
  /** What the member's car photos take in storage; `unmeasured`: photos stored before sizes were recorded. */
  storage: { photos: number; bytes: number; unmeasured: number };
};

const megabytes = new Intl.NumberFormat("en-GB", { style: "unit", unit: "megabyte", maximumFractionDigits: 1 });

/** "No car photos", or "12 car photos · 34.5 MB", saying when some photos' sizes are not known. */
function storageText({ photos, bytes, unmeasured }: MemberSummary["storage"]) {
  if (photos === 0) return "No car photos";
  const count = `${photos} car ${photos === 1 ? "photo" : "photos"}`;
  const size = megabytes.format(bytes / (1024 * 1024));
  return unmeasured > 0 ? `${count} · ${size} (${unmeasured} not measured)` : `${count} · ${size}`;
}

const ROLE_TONES: Record<RoleName, BadgeTone> = { admin: "strong", organizer: "neutral", member: "quiet" };

function RoleBadge({ role }: { role: RoleName }) {
  return <Badge tone={ROLE_TONES[role]}>{ROLE_LABELS[role]}</Badge>;
}

/** One account with its role; an admin's own row has no form (they cannot change their own role). */
export function MemberRow({ member, isYou }: { member: MemberSummary; isYou: boolean }) {
  const { timeZone } = useSite();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("userId") === member.id;
  const joined = member.createdAt.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone,
  });
  const selectId = `role-${member.id}`;
  return (
    <li className="grid gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-6 sm:px-5">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold">
          {member.name}
          {isYou ? <span className="text-sm font-normal text-muted">(you)</span> : null}
          <RoleBadge role={member.role} />
        </p>
        <p className="truncate text-sm text-muted">
          {member.email}
          {member.handle ? ` · @${member.handle}` : ""}
        </p>
        <p className="mt-0.5 text-xs text-muted">
          Joined <time dateTime={member.createdAt.toISOString()}>{joined}</time>
          {member.emailVerified ? "" : " · email not confirmed yet"}
        </p>
        <p className="mt-0.5 text-xs text-muted">Storage: {storageText(member.storage)}</p>
        <DateOfBirthForm member={member} />
      </div>
      {isYou ? (
        <p className="text-sm text-muted sm:max-w-[16rem] sm:text-right">Only another admin can change your role.</p>
      ) : (
        // Keyed by role so the menu shows the saved role after the page reloads its data.
        <Form method="post" key={`${member.id}-${member.role}`} className="flex items-center gap-2">
          <input type="hidden" name="intent" value="set-role" />
          <input type="hidden" name="userId" value={member.id} />
          <label htmlFor={selectId} className="sr-only">
            Role for {member.name}
          </label>
          <select
            id={selectId}
            name="role"
            defaultValue={member.role}
            className="rounded-xl border border-line bg-surface px-3 py-2 font-semibold text-text focus-visible:border-focus"
          >
            {Object.entries(ROLE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <button
            type="submit"
            aria-disabled={saving || undefined}
            className="rounded-full bg-surface-sunken px-4 py-2 text-sm font-bold text-text hover:bg-line aria-disabled:opacity-70"
          >
            {saving ? "Saving…" : "Change role"}
            <span className="sr-only"> for {member.name}</span>
          </button>
        </Form>
      )}
    </li>
  );
}

/**
 * A member who has entered a prize draw cannot change their date of birth themselves: an admin
 * corrects it here, with the reason, and the change goes to the audit log.
 */
function DateOfBirthForm({ member }: { member: MemberSummary }) {
  const dateId = `birth-${member.id}`;
  const reasonId = `birth-reason-${member.id}`;
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-link underline">Change date of birth</summary>
      <Form method="post" className="mt-2 grid gap-2 sm:max-w-sm">
        <input type="hidden" name="intent" value="set-date-of-birth" />
        <input type="hidden" name="userId" value={member.id} />
        <label htmlFor={dateId} className="font-semibold">
          Date of birth
        </label>
        <input
          id={dateId}
          name="dateOfBirth"
          type="date"
          className="rounded-xl border border-line bg-surface px-3 py-2"
        />
        <label htmlFor={reasonId} className="font-semibold">
          Reason, kept in the audit log
        </label>
        <input
          id={reasonId}
          name="reason"
          required
          maxLength={300}
          className="rounded-xl border border-line bg-surface px-3 py-2"
        />
        <button
          type="submit"
          className="justify-self-start rounded-full bg-surface-sunken px-4 py-2 font-bold text-text hover:bg-line"
        >
          Save date of birth<span className="sr-only"> for {member.name}</span>
        </button>
      </Form>
    </details>
  );
}

/**
 * A role change waits for the admin's password when their sign-in is more than a few minutes old:
 * the change they chose is kept in the form, and goes through once the password is right.
 */
export function ConfirmRoleChange({
  userId,
  role,
  name,
  problem,
}: {
  userId: string;
  role: RoleName;
  name: string;
  problem: string | null;
}) {
  return (
    <section
      aria-labelledby="confirm-role-title"
      className="mt-6 space-y-4 rounded-2xl border border-line bg-surface-raised p-5"
    >
      <h2 id="confirm-role-title" className="text-lg font-bold">
        Confirm it's you
      </h2>
      <p>
        To make {name} {ROLE_AS_NOUN[role]}, enter your password. You signed in more than 5 minutes ago.
      </p>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="set-role" />
        <input type="hidden" name="userId" value={userId} />
        <input type="hidden" name="role" value={role} />
        {problem ? (
          <p id="confirm-role-error" className="font-semibold text-red-700 dark:text-red-300">
            {problem}
          </p>
        ) : null}
        <div className="space-y-1.5">
          <label htmlFor="confirm-role-password" className="block font-semibold">
            Your password
          </label>
          <input
            id="confirm-role-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={128}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "confirm-role-error" : undefined}
            className="block w-full max-w-sm rounded-xl border border-line bg-surface px-3.5 py-2.5 text-base text-text focus-visible:border-focus"
          />
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" className="rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent">
            Change role
          </button>
          <Link to="." className="font-semibold text-link underline">
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}
