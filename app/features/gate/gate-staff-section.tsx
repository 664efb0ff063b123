import { Form } from "react-router";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, SubmitButton } from "~/ui/form";
import { TabSection } from "~/ui/record-page";

type Errors = Record<string, string[] | null | undefined>;

const ROLE_WORDS = { steward: "Steward", supervisor: "Supervisor" } as const;

/**
 * The organizer's list of who works this event's gate, with adding by email and removing. Plain
 * forms: the page works before its script has loaded. Stewards and supervisors open the gate from
 * their account (docs/gate.md).
 */
export function GateStaffSection({
  staff,
  errors,
}: {
  staff: readonly { userId: string; name: string; email: string; role: "steward" | "supervisor" }[];
  errors: Errors;
}) {
  const emailError = errors.email?.[0] ?? errors[""]?.[0];
  return (
    <TabSection id="gate-staff" title="Gate staff">
      <p className="max-w-prose text-sm text-muted">
        Members you put here open this event&rsquo;s gate from their account, with nothing else of the dashboard. A
        steward scans and sees each holder&rsquo;s initials and ticket type; a supervisor also sees names, searches the
        list, lets people in by hand with a reason, and sees conflicts and the counts per gate. Organizers and admins
        supervise every gate.
      </p>
      {staff.length === 0 ? (
        <Card as="p" variant="empty" className="p-5 text-muted">
          Nobody yet.
        </Card>
      ) : (
        <Card as="ul" className="divide-y divide-line">
          {staff.map((person) => (
            <li key={person.userId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="font-semibold">
                  {person.name} <span className="font-normal text-muted">· {ROLE_WORDS[person.role]}</span>
                </p>
                <p className="break-all text-sm text-muted">{person.email}</p>
              </div>
              <Form method="post">
                <input type="hidden" name="userId" value={person.userId} />
                <SubmitButton name="intent" value="staff-remove" variant="secondary" pendingLabel="Removing…" fit>
                  Remove<span className="sr-only"> {person.name}</span>
                </SubmitButton>
              </Form>
            </li>
          ))}
        </Card>
      )}
      <Card as="section" aria-labelledby="add-gate-staff" className="p-5">
        <h3 id="add-gate-staff" className="text-lg font-bold">
          Add someone
        </h3>
        {/* A new form after each change, so the address just added is not left in the field. */}
        <Form
          key={staff.map((person) => `${person.userId}:${person.role}`).join()}
          method="post"
          className="mt-3 flex flex-wrap items-end gap-3"
        >
          <div className="min-w-[16rem] flex-1 space-y-1.5">
            <label htmlFor="gate-staff-email" className="block font-semibold">
              Their email address
            </label>
            <input
              id="gate-staff-email"
              name="email"
              type="email"
              required
              autoComplete="off"
              maxLength={254}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? "gate-staff-email-error" : undefined}
              className={inputClass(Boolean(emailError))}
            />
            <FieldErrors id="gate-staff-email-error" errors={emailError ? [emailError] : undefined} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="gate-staff-role" className="block font-semibold">
              Role
            </label>
            <select id="gate-staff-role" name="role" defaultValue="steward" className={`${inputClass(false)} h-12`}>
              <option value="steward">Steward</option>
              <option value="supervisor">Supervisor</option>
            </select>
          </div>
          <SubmitButton name="intent" value="staff-add" pendingLabel="Adding…" fit>
            Add to the gate
          </SubmitButton>
        </Form>
      </Card>
    </TabSection>
  );
}

/** Whether ticket holders may go out and come back in: the gate then scans exits too. */
export function ReentrySetting({ reentry }: { reentry: boolean }) {
  return (
    <TabSection id="reentry" title="Re-entry">
      <Form method="post" className="space-y-3">
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="reentry"
            defaultChecked={reentry}
            className="mt-1 size-5 shrink-0 accent-[var(--color-accent)]"
          />
          <span>
            <span className="block font-semibold">Let ticket holders out and back in</span>
            <span className="block text-sm text-muted">
              The gate gets an Entry and Exit switch. A ticket scanned out comes back in once it is scanned out; the
              counter shows who is inside now.
            </span>
          </span>
        </label>
        <SubmitButton name="intent" value="reentry" variant="secondary" pendingLabel="Saving…" fit>
          Save re-entry
        </SubmitButton>
      </Form>
    </TabSection>
  );
}
