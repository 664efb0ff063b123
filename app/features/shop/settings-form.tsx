import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Form } from "react-router";
import { Card } from "~/ui/card";
import { Checkbox, FormErrors, SubmitButton } from "~/ui/form";
import { InputField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol, moneyInputValue } from "~/ui/money";
import { type SettingsInput, shopSettingsSchema } from "./schemas";

type SettingsFormValues = { flatFee: string; freeOver: string; collectionEnabled?: "on"; countries: string };

/** The saved delivery settings as the form shows them (text). */
export function settingsFormValues(settings: {
  flatFee: number;
  freeOver: number | null;
  collectionEnabled: boolean;
  countries: string[];
}): SettingsFormValues {
  return {
    flatFee: moneyInputValue(settings.flatFee),
    freeOver: settings.freeOver === null ? "" : moneyInputValue(settings.freeOver),
    collectionEnabled: settings.collectionEnabled ? "on" : undefined,
    countries: settings.countries.join(", "),
  };
}

/** How merch reaches buyers (docs/shop.md): the delivery fee, free delivery, collection, countries. */
export function ShopSettingsForm({
  defaultValue,
  currency,
  lastResult,
}: {
  defaultValue: SettingsFormValues;
  currency: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const schema = useMemo(() => shopSettingsSchema({ currency }), [currency]);
  const [form, fields] = useLiveForm<SettingsFormValues, SettingsInput>({
    id: "shop-settings",
    schema,
    lastResult,
    defaultValue,
  });
  const symbol = currencySymbol(currency);
  return (
    <Card className="p-6">
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.flatFee}
            label={`Delivery fee (${symbol})`}
            kind="money"
            hint="One fee per order, whatever it holds."
          />
          <InputField
            meta={fields.freeOver}
            label={`Free delivery from (${symbol})`}
            kind="money"
            hint="Merch in the order at this amount or more posts free. Blank: never free."
          />
        </div>
        <InputField
          meta={fields.countries}
          label="Countries delivered to"
          hint="Two-letter ISO codes separated by commas: GB, IE. Buyers are offered those the address form has a postcode rule for."
          inputProps={{ autoCapitalize: "characters", spellCheck: false }}
        />
        <Checkbox meta={fields.collectionEnabled}>
          Buyers may collect at an event they have a ticket for (free)
        </Checkbox>
        <SubmitButton fit pendingLabel="Saving…">
          Save settings
        </SubmitButton>
      </Form>
    </Card>
  );
}
