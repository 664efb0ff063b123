import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { FormErrors, SubmitButton } from "~/ui/form";
import { FormSection, InputField, SelectField, TextAreaField } from "~/ui/form-fields";
import { DownloadCsvLink, TabSection } from "~/ui/record-page";
import { HeaderRow } from "~/ui/table";
import { zoneName } from "~/ui/time-window";
import { postalEntryFields, postalEntrySchema } from "./schemas";

export type EntryListItem = {
  number: number;
  source: "paid" | "postal" | "free";
  status: "valid" | "void";
  eligible: boolean;
  who: string;
  email: string | null;
  when: string;
};

const SOURCE_LABELS = { paid: "Paid", postal: "Postal", free: "Free" } as const;

/** The form staff record a postal entry with, from the envelope. */
export function PostalEntryForm({
  options,
  timeZone,
  defaultReceivedAt,
  lastResult,
}: {
  options: string[];
  timeZone: string;
  defaultReceivedAt: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const schema = useMemo(
    () => postalEntrySchema({ timeZone, optionCount: options.length }),
    [timeZone, options.length],
  );
  const [form, fields] = useForm({
    id: "postal-entry",
    lastResult,
    constraint: getZodConstraint(postalEntryFields({ optionCount: options.length })),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { receivedAt: defaultReceivedAt, answer: "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormSection
        id="postal"
        title="Record a postal entry"
        description="One envelope, one entry. It gets a number from the same pool as paid entries."
      >
        <FormErrors id={form.errorId} errors={form.errors} />
        <InputField meta={fields.name} label="Entrant's name" inputProps={{ autoComplete: "off" }} />
        <TextAreaField meta={fields.address} label="Entrant's address" rows={3} />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.receivedAt}
            label="Received"
            kind="datetime-local"
            hint={`In ${zoneName(timeZone)}. Entries arriving after the close are refused.`}
          />
          <SelectField
            meta={fields.answer}
            label="Their answer"
            options={[
              { value: "", label: "Choose…" },
              ...options.map((option, index) => ({ value: String(index), label: option })),
            ]}
          />
        </div>
        <InputField
          meta={fields.email}
          label="Member's email (optional)"
          hint="When the entrant has an account: the entry then counts towards their limit."
          inputProps={{ type: "email", autoComplete: "off", spellCheck: false }}
        />
        <SubmitButton name="intent" value="postal" pendingLabel="Recording…" fit>
          Record postal entry
        </SubmitButton>
      </FormSection>
    </Form>
  );
}

/** The latest entries, newest first, with the CSV of them all. */
export function EntryTable({ entries, csvHref, total }: { entries: EntryListItem[]; csvHref: string; total: number }) {
  return (
    <TabSection
      id="entries"
      title="Entries"
      intro={
        total === 0 ? "No entries yet." : `The latest ${Math.min(total, entries.length)} of ${total}, newest first.`
      }
      aside={<DownloadCsvLink href={csvHref} />}
    >
      {entries.length > 0 ? (
        <div className="overflow-x-auto rounded-2xl border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Latest entries</caption>
            <thead className="bg-surface-sunken">
              <HeaderRow cellClassName="px-3 py-2" columns={["Number", "Entrant", "Source", "Answer", "When"]} />
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.number} className="border-t border-line">
                  <td className="tabular px-3 py-2 font-bold">{entry.number}</td>
                  <td className="px-3 py-2">
                    {entry.who}
                    {entry.email ? <span className="block text-muted break-all">{entry.email}</span> : null}
                  </td>
                  <td className="px-3 py-2">
                    {SOURCE_LABELS[entry.source]}
                    {entry.status === "void" ? (
                      <>
                        {" "}
                        <Badge tone="danger">Void</Badge>
                      </>
                    ) : null}
                  </td>
                  <td className="px-3 py-2">{entry.eligible ? "Right" : "Wrong"}</td>
                  <td className="px-3 py-2 text-muted">{entry.when}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </TabSection>
  );
}
