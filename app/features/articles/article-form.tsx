import { ImagePlus } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Form } from "react-router";
import { FormErrors, inputClass, SubmitButton } from "~/ui/form";
import { FileField, FormSection, InputField, TextAreaField } from "~/ui/form-fields";
import { type SubmissionReply, useLightForm } from "~/ui/light-form";
import { formatCount } from "~/ui/plural";
import { zoneName } from "~/ui/time-window";
import { ARTICLE_LIMITS, slugFromTitle } from "./article-limits";

export type ArticleFormValues = {
  title: string;
  slug: string;
  excerpt: string;
  tags: string;
  body: string;
  coverAlt: string;
  publishAt: string;
};

type Shape = ArticleFormValues & { cover: File };

const CONSTRAINTS = {
  title: { required: true, maxLength: ARTICLE_LIMITS.title },
  slug: { maxLength: ARTICLE_LIMITS.slug, pattern: "[a-z0-9]+(-[a-z0-9]+)*" },
  excerpt: { maxLength: ARTICLE_LIMITS.excerpt },
  tags: { maxLength: ARTICLE_LIMITS.tags },
  coverAlt: { maxLength: ARTICLE_LIMITS.coverAlt },
  body: { maxLength: ARTICLE_LIMITS.body },
};

const ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";
const PREVIEW_DELAY_MS = 350;

/** Posts to the editor's helper route and reads its JSON answer. */
async function askEditor<T>(form: FormData): Promise<T | null> {
  try {
    const response = await fetch("/admin/articles/editor", { method: "POST", body: form, credentials: "same-origin" });
    if (!response.headers.get("Content-Type")?.includes("json")) return null;
    return (await response.json()) as T;
  } catch {
    return null;
  }
}

/**
 * The live preview: the body as the blog will show it, rendered by the server's own Markdown
 * rules a moment after typing stops (one renderer, so the preview cannot disagree with the page).
 */
function usePreview(initial: string) {
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(0);
  const render = (body: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const ticket = ++latest.current;
      const form = new FormData();
      form.set("intent", "preview");
      form.set("body", body);
      const answer = await askEditor<{ html: string | null; error: string | null }>(form);
      if (ticket !== latest.current) return;
      if (answer) {
        setHtml(answer.html);
        setError(answer.error);
      } else setError("The preview could not be loaded. Your text is safe: save it as usual.");
    }, PREVIEW_DELAY_MS);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first preview is of the body the page opened with.
  useEffect(() => {
    if (initial) render(initial);
    return () => clearTimeout(timer.current);
  }, []);
  return { html, error, render };
}

const IMAGE_FIELDS = { image: "body-image", alt: "body-image-alt" } as const;

/** One of the image upload's inputs: not part of the article form (no name), its errors its own. */
function imageField(field: keyof typeof IMAGE_FIELDS, errors: string[] | undefined, maxLength?: number) {
  const id = IMAGE_FIELDS[field];
  return { id, name: "", errorId: `${id}-error`, errors, maxLength };
}

/** Upload an image, and its Markdown goes into the body where the cursor was. */
function BodyImageUpload({ onMarkdown }: { onMarkdown: (markdown: string) => void }) {
  const [errors, setErrors] = useState<{ image?: string[]; alt?: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = async () => {
    const input = (field: keyof typeof IMAGE_FIELDS) =>
      document.getElementById(IMAGE_FIELDS[field]) as HTMLInputElement | null;
    const file = input("image")?.files?.[0];
    const alt = input("alt")?.value.trim() ?? "";
    const problems = {
      ...(file ? {} : { image: ["Choose an image"] }),
      ...(alt ? {} : { alt: ["Describe the image for people who cannot see it"] }),
    };
    if (!file || !alt) return setErrors(problems);
    const form = new FormData();
    form.set("intent", "image");
    form.set("image", file);
    form.set("alt", alt);
    setBusy(true);
    const answer = await askEditor<{ markdown: string | null; errors: typeof errors }>(form);
    setBusy(false);
    if (answer?.markdown) {
      onMarkdown(answer.markdown);
      setErrors(null);
      for (const field of ["image", "alt"] as const) {
        const element = input(field);
        if (element) element.value = "";
      }
    } else setErrors(answer?.errors ?? { image: ["The image could not be uploaded. Try again."] });
  };
  return (
    <fieldset className="rounded-xl border border-dashed border-line p-4">
      <legend className="px-1 font-semibold">Add an image to the text</legend>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
        <FileField meta={imageField("image", errors?.image)} label="Image" accept={ACCEPT} />
        <InputField meta={imageField("alt", errors?.alt, ARTICLE_LIMITS.coverAlt)} label="Description" />
        <button
          type="button"
          onClick={upload}
          aria-disabled={busy || undefined}
          className="inline-flex h-11 items-center justify-center gap-2 rounded-full bg-surface-sunken px-5 font-bold hover:bg-line aria-disabled:opacity-70"
        >
          <ImagePlus aria-hidden className="size-4" />
          {busy ? "Uploading…" : "Insert image"}
        </button>
      </div>
    </fieldset>
  );
}

/**
 * The article editor, for a new article and an existing one: the words, the cover, the body in
 * Markdown with its live preview and image uploads, and when it goes out. Every button sends the
 * whole form, so nothing typed is lost whichever is pressed.
 */
export function ArticleForm({
  lastResult,
  defaults,
  state,
  cover,
  timeZone,
}: {
  lastResult?: SubmissionReply | null;
  defaults: ArticleFormValues;
  state: "new" | "draft" | "scheduled" | "published";
  /** The current cover's address, to show beside its description. */
  cover: { src: string; alt: string } | null;
  timeZone: string;
}) {
  const reply = useMemo(
    () => ({ ...(lastResult ?? {}), initialValue: { ...defaults, ...(lastResult?.initialValue ?? {}) } }),
    [lastResult, defaults],
  );
  const [form, fields] = useLightForm<Shape>({ lastResult: reply, constraint: CONSTRAINTS });
  const [title, setTitle] = useState(String(reply.initialValue.title ?? ""));
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const preview = usePreview(String(reply.initialValue.body ?? ""));
  const insert = (markdown: string) => {
    const area = bodyRef.current;
    if (!area) return;
    const at = area.selectionEnd ?? area.value.length;
    const before = area.value.slice(0, at);
    const gap = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    area.setRangeText(`${gap}${markdown}\n\n`, at, at, "end");
    area.focus();
    preview.render(area.value);
  };
  return (
    <Form method="post" encType="multipart/form-data" {...form.props} className="space-y-6">
      <FormErrors id={form.errorId} errors={form.errors} />
      <FormSection
        id="words"
        title="The article"
        description="What readers see on cards, in search and at the top of the page."
      >
        <InputField
          meta={fields.title}
          label="Title"
          inputProps={{ onInput: (event) => setTitle(event.currentTarget.value) }}
        />
        <InputField
          meta={fields.slug}
          label="Web address"
          hint={
            state === "new"
              ? `The article lives at /blog/followed-by-this. Leave it empty to use “${slugFromTitle(title || "your title")}”.`
              : "The article lives at /blog/followed-by-this. Links shared with the old address stop working if you change it."
          }
          inputProps={{ autoCapitalize: "none", spellCheck: false, placeholder: slugFromTitle(title || "your title") }}
        />
        <TextAreaField
          meta={fields.excerpt}
          label="Summary (optional)"
          rows={2}
          hint={`One or two sentences for cards, search results and the feed, up to ${ARTICLE_LIMITS.excerpt} characters.`}
        />
        <InputField
          meta={fields.tags}
          label="Tags (optional)"
          hint="Separated by commas, like: event report, track days. They are stored lower-case with hyphens."
        />
      </FormSection>

      <FormSection
        id="cover"
        title="Cover image"
        description="A 16:9 picture for the card, the page and links shared elsewhere."
      >
        {cover ? (
          <img
            src={cover.src}
            alt={cover.alt}
            width={480}
            height={270}
            className="aspect-video w-full max-w-sm rounded-xl object-cover"
          />
        ) : null}
        <FileField
          meta={fields.cover}
          label={cover ? "Replace the cover (optional)" : "Cover (optional)"}
          accept={ACCEPT}
        />
        <InputField
          meta={fields.coverAlt}
          label="Describe the cover"
          hint="For people who cannot see it: what is in the picture."
        />
      </FormSection>

      <FormSection
        id="body"
        title="Text"
        description="Markdown: ## headings, **bold**, _italic_, lists, > quotes, tables and [links](https://example.com). HTML is shown as text."
      >
        <div className="grid gap-5 xl:grid-cols-2">
          <TextAreaField
            meta={fields.body}
            label="Body"
            rows={18}
            hint={`Up to ${formatCount(ARTICLE_LIMITS.body)} characters.`}
            textareaProps={{
              // The field component passes its extra props through to the textarea, a ref included.
              ...({ ref: bodyRef } as object),
              onInput: (event) => preview.render(event.currentTarget.value),
              className: `${inputClass(Boolean(fields.body.errors))} min-h-24 font-mono text-sm leading-relaxed`,
            }}
          />
          <section aria-labelledby="preview-title" className="min-w-0 space-y-1.5">
            <h3 id="preview-title" className="font-semibold">
              Preview
            </h3>
            <div className="max-h-[36rem] min-h-48 overflow-y-auto rounded-xl border border-line bg-surface p-4">
              {preview.error ? <p className="text-sm text-red-700 dark:text-red-300">{preview.error}</p> : null}
              {preview.html ? (
                <div
                  className="prose-pitlane [&_.heading-anchor]:hidden [&_img]:h-auto [&_img]:max-w-full [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-surface-sunken [&_pre]:p-3"
                  dangerouslySetInnerHTML={{ __html: preview.html }}
                />
              ) : preview.error ? null : (
                <p className="text-sm text-muted">Start writing: the article appears here as readers will see it.</p>
              )}
            </div>
          </section>
        </div>
        <BodyImageUpload onMarkdown={insert} />
      </FormSection>

      <FormSection
        id="publishing"
        title="Publishing"
        description={
          state === "published"
            ? "It is on the blog. Saving keeps it there with its date."
            : state === "scheduled"
              ? "It is scheduled: it appears on the blog at its time, on its own."
              : "Drafts are seen by staff only. Publish it now, or choose a time and it appears on its own."
        }
      >
        <InputField
          meta={fields.publishAt}
          label={`Publish at (${zoneName(timeZone)} time)`}
          kind="datetime-local"
          hint="Only for Schedule."
        />
        <div className="flex flex-wrap gap-3">
          <div className="w-full sm:w-auto">
            <SubmitButton
              name="intent"
              value="save"
              fit
              variant={state === "new" || state === "draft" ? "secondary" : "primary"}
            >
              {state === "new" || state === "draft" ? "Save draft" : "Save changes"}
            </SubmitButton>
          </div>
          {state !== "published" ? (
            <div className="w-full sm:w-auto">
              <SubmitButton name="intent" value="publish" fit>
                Publish now
              </SubmitButton>
            </div>
          ) : null}
          <div className="w-full sm:w-auto">
            <SubmitButton name="intent" value="schedule" fit variant="secondary">
              Schedule
            </SubmitButton>
          </div>
          {state === "published" || state === "scheduled" ? (
            <div className="w-full sm:w-auto">
              <SubmitButton name="intent" value="unpublish" fit variant="danger" formNoValidate>
                Unpublish
              </SubmitButton>
            </div>
          ) : null}
        </div>
      </FormSection>
    </Form>
  );
}
