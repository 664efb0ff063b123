import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { FormErrors, SubmitButton } from "~/ui/form";
import { InputField, SelectField, TextAreaField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { CATEGORY_LABELS } from "./catalogue-labels";
import { PRODUCT_STATUS_LABELS, type ProductFormDefaults, type ProductInput, productSchema } from "./schemas";

const categoryOptions = Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label }));
const statusOptions = Object.entries(PRODUCT_STATUS_LABELS).map(([value, label]) => ({ value, label }));

/** A product's saved fields as its form shows them (text). */
export function productFormValues(product: {
  title: string;
  slug: string;
  category: string;
  status: string;
  summary: string;
  description: string;
  sizeGuide: string;
  optionNames: string[];
  lowStockThreshold: number;
}): ProductFormDefaults {
  return {
    title: product.title,
    slug: product.slug,
    category: product.category,
    status: product.status,
    summary: product.summary,
    description: product.description,
    sizeGuide: product.sizeGuide,
    optionNames: product.optionNames.join(", "),
    lowStockThreshold: String(product.lowStockThreshold),
  };
}

/** The product's own fields: the new-product page (saved as a draft) and the top of the editor. */
export function ProductForm({
  defaultValue,
  lastResult,
  isNew,
}: {
  defaultValue: ProductFormDefaults;
  lastResult?: SubmissionResult<string[]>;
  isNew: boolean;
}) {
  const [form, fields] = useLiveForm<ProductFormDefaults, ProductInput>({
    id: isNew ? "new-product" : "product",
    schema: productSchema,
    lastResult,
    defaultValue,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value={isNew ? "create" : "save"} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <InputField meta={fields.title} label="Title" />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField
          meta={fields.slug}
          label="Address"
          hint={isNew ? "/shop/… — leave blank to make it from the title." : "/shop/… — changing it breaks old links."}
          inputProps={{ autoCapitalize: "none", spellCheck: false }}
        />
        <SelectField meta={fields.category} label="Category" options={categoryOptions} />
      </div>
      {isNew ? null : <SelectField meta={fields.status} label="Status" options={statusOptions} />}
      <InputField meta={fields.summary} label="Summary" hint="One line under the title." />
      <TextAreaField meta={fields.description} label="Description" rows={6} hint="Markdown: **bold**, lists, links." />
      <TextAreaField
        meta={fields.sizeGuide}
        label="Size guide"
        rows={5}
        hint="Markdown, a table works well. Leave blank when sizes do not apply."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField
          meta={fields.optionNames}
          label="Options"
          hint="What buyers choose between, separated by commas: Size, Colour. Blank for one kind only."
        />
        <InputField
          meta={fields.lowStockThreshold}
          label="Low-stock threshold"
          kind="number"
          hint={'At this many left or fewer, the shop says "Few left" and the list highlights it.'}
        />
      </div>
      <SubmitButton fit intent={isNew ? "create" : "save"} pendingLabel="Saving…">
        {isNew ? "Save draft" : "Save product"}
      </SubmitButton>
    </Form>
  );
}
