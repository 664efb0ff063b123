import { z } from "zod";
import { CONTROL, LINE_BREAK_OR_CONTROL, MESSAGES, tooLong } from "~/features/forms/fields";
import { formatCount } from "~/ui/plural";
import { ARTICLE_LIMITS, isUsableArticleSlug } from "./article-limits";
import { MAX_TAG_LENGTH, MAX_TAGS, parseTags } from "./tags";

const line = (max: number, missing?: string) => {
  const base = z
    .string()
    .trim()
    .max(max, tooLong(max))
    .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), MESSAGES.oneLine);
  return missing ? base.min(1, missing) : base;
};

/** A field that may be left empty (the form sends nothing for it then): `empty` stands in. */
const optional = <Out>(schema: z.ZodType<Out, string>, empty: Out) =>
  schema.optional().transform((value) => (value === undefined ? empty : value));

const ARTICLE_INTENTS = ["save", "publish", "schedule", "unpublish"] as const;

const IMAGE_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;

/** The article form: what the editor types. Times are read in the site's zone by the editor rules. */
export const articleFormSchema = z
  .object({
    intent: z.enum(ARTICLE_INTENTS).catch("save"),
    title: z
      .string({ error: "Give the article a title" })
      .trim()
      .min(1, "Give the article a title")
      .max(ARTICLE_LIMITS.title, tooLong(ARTICLE_LIMITS.title))
      .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), MESSAGES.oneLine),
    slug: optional(
      z
        .string()
        .trim()
        .toLowerCase()
        .max(ARTICLE_LIMITS.slug, tooLong(ARTICLE_LIMITS.slug))
        .refine((value) => value === "" || isUsableArticleSlug(value), MESSAGES.slug("spring-meet-report")),
      "",
    ),
    excerpt: optional(line(ARTICLE_LIMITS.excerpt), ""),
    tags: optional(
      z
        .string()
        .max(ARTICLE_LIMITS.tags, tooLong(ARTICLE_LIMITS.tags))
        .transform((value) => parseTags(value))
        .refine((tags) => tags.length <= MAX_TAGS, `Use at most ${MAX_TAGS} tags`)
        .refine((tags) => tags.every((tag) => tag.length <= MAX_TAG_LENGTH), "Keep each tag short"),
      [] as string[],
    ),
    body: optional(
      z
        .string()
        .max(
          ARTICLE_LIMITS.body,
          `The article is too long: keep it under ${formatCount(ARTICLE_LIMITS.body)} characters, or split it in two`,
        )
        .refine((value) => !CONTROL.test(value), MESSAGES.control),
      "",
    ),
    coverAlt: optional(line(ARTICLE_LIMITS.coverAlt), ""),
    cover: z
      .file()
      .max(IMAGE_UPLOAD_MAX_BYTES, "Choose an image of at most 15 MB")
      .optional()
      // An empty file input sends a nameless, empty file.
      .transform((file) => (file && file.size > 0 ? file : undefined)),
    publishAt: optional(z.string().trim().max(40), ""),
  })
  .superRefine((value, ctx) => {
    if (value.cover && !value.coverAlt)
      ctx.addIssue({ code: "custom", path: ["coverAlt"], message: "Describe the cover for people who cannot see it" });
    if (value.intent === "schedule" && !value.publishAt)
      ctx.addIssue({ code: "custom", path: ["publishAt"], message: "Choose when to publish it" });
  });

export type ArticleFormInput = z.output<typeof articleFormSchema>;

/** The body-image upload: an image and its description, which becomes the Markdown's alt text. */
export const bodyImageSchema = z.object({
  image: z
    .file({ error: "Choose an image" })
    .max(IMAGE_UPLOAD_MAX_BYTES, "Choose an image of at most 15 MB")
    .refine((file) => file.size > 0, "Choose an image"),
  alt: line(ARTICLE_LIMITS.coverAlt, "Describe the image for people who cannot see it"),
});
