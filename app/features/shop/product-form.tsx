import { Form } from "react-router";
import { SubmitButton } from "~/ui/form";
import { FormProblem, type Reply, Select, TextArea, TextInput } from "./admin-fields";
import { CATEGORY_LABELS } from "./catalogue-labels";
import { LIMITS } from "./limits";

/** The product's own fields: the new-product page and the top of the editor (docs/shop.md). */

export type ProductFields = {
  title: string;
  slug: string;
  category: string;
  status: string;
  summary: string;
  description: string;
  sizeGuide: string;
  optionNames: string[];
  lowStockThreshold: number;
};

const STATUS_OPTIONS: [string, string][] = [
  ["draft", "Draft — only staff see it"],
  ["active", "On sale"],
  ["archived", "Archived — off the shop, kept for old orders"],
];

/** The product's own fields: the new-product page and the top of the editor. */
export function ProductForm({ product, reply, isNew }: { product: ProductFields; reply?: Reply; isNew: boolean }) {
  const form = isNew ? "new-product" : "product";
  return (
    <Form method="post" className="space-y-5" noValidate>
      <input type="hidden" name="intent" value={isNew ? "create" : "save"} />
      <FormProblem reply={reply} />
      <TextInput
        form={form}
        name="title"
        label="Title"
        value={product.title}
        reply={reply}
        required
        maxLength={LIMITS.title}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextInput
          form={form}
          name="slug"
          label="Address"
          value={product.slug}
          reply={reply}
          maxLength={LIMITS.slug}
          hint={isNew ? "/shop/… — leave blank to make it from the title." : "/shop/… — changing it breaks old links."}
        />
        <Select
          form={form}
          name="category"
          label="Category"
          value={product.category}
          reply={reply}
          options={Object.entries(CATEGORY_LABELS)}
        />
      </div>
      {isNew ? (
        <input type="hidden" name="status" value="draft" />
      ) : (
        <Select
          form={form}
          name="status"
          label="Status"
          value={product.status}
          reply={reply}
          options={STATUS_OPTIONS}
        />
      )}
      <TextInput
        form={form}
        name="summary"
        label="Summary"
        value={product.summary}
        reply={reply}
        maxLength={LIMITS.summary}
        hint="One line under the title."
      />
      <TextArea
        form={form}
        name="description"
        label="Description"
        value={product.description}
        reply={reply}
        maxLength={LIMITS.description}
        hint="Markdown: **bold**, lists, links."
      />
      <TextArea
        form={form}
        name="sizeGuide"
        label="Size guide"
        value={product.sizeGuide}
        reply={reply}
        rows={5}
        maxLength={LIMITS.sizeGuide}
        hint="Markdown, a table works well. Leave blank when sizes do not apply."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextInput
          form={form}
          name="optionNames"
          label="Options"
          value={product.optionNames.join(", ")}
          reply={reply}
          maxLength={200}
          hint="What buyers choose between, separated by commas: Size, Colour. Blank for one kind only."
        />
        <TextInput
          form={form}
          name="lowStockThreshold"
          label="Low-stock threshold"
          type="number"
          inputMode="numeric"
          min={0}
          max={LIMITS.threshold}
          value={String(product.lowStockThreshold)}
          reply={reply}
          hint={'At this many left or fewer, the shop says "Few left" and the list highlights it.'}
        />
      </div>
      <SubmitButton fit pendingLabel="Saving…">
        {isNew ? "Save draft" : "Save product"}
      </SubmitButton>
    </Form>
  );
}
