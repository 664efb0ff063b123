import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import { ARTICLE_LIMITS } from "~/features/articles/article-limits";
import { saveArticle, storeBodyImage } from "~/features/articles/editor.server";
import { articleFormSchema, bodyImageSchema } from "~/features/articles/schemas";
import { renderMarkdown } from "~/features/content/markdown.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Storage } from "~/server/storage/storage.server";
import { notFound } from "~/ui/not-found";
import { withinAttemptLimits } from "~/web/account-call.server";

// The forms of the article editor: read the form, check it with its schema, call the editor
// rule, and answer a redirect with a flash message or the form's errors (400) with what was typed.

export type EditorCall = {
  db: Db;
  storage: Storage;
  actorId: string;
  ip: string;
  timeZone: string;
  siteUrl: string;
};

/** What the editor's rules need from a request made by `actorId`. */
export function editorCall(context: Readonly<RouterContextProvider>, actorId: string): EditorCall {
  const { db, env, storage } = context.get(runtimeContext);
  const ip = context.get(requestContext).ip;
  return { db, storage, actorId, ip, timeZone: env.TIME_ZONE, siteUrl: env.SITE_URL };
}

const ArticleIdSchema = z.uuid();

/** The article id from the address, or the 404. */
export function articleIdFrom(value: string | undefined) {
  const parsed = ArticleIdSchema.safeParse(value);
  if (!parsed.success) notFound();
  return parsed.data.toLowerCase();
}

const FLASH = {
  created: "Draft saved. Nobody else sees it until you publish it.",
  saved: "Changes saved.",
  published: "Published: it is on the blog now.",
  scheduled: "Scheduled: it appears on the blog at the time you chose.",
  unpublished: "Unpublished: it is a draft again.",
} as const;

/** Save, publish, schedule or unpublish, from the new-article page (no id) or an article's page. */
export async function saveArticleAction(call: EditorCall & { articleId: string | null }, formData: FormData) {
  const submission = parseWithZod(formData, { schema: articleFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  if (submission.value.cover)
    await withinAttemptLimits(limitImageUploads(call.db, { userId: call.actorId, ip: call.ip }));
  const outcome = await saveArticle(call.db, call.storage, {
    actorId: call.actorId,
    articleId: call.articleId,
    input: submission.value,
    now: new Date(),
    timeZone: call.timeZone,
  });
  if (!outcome.ok) {
    if ("notFound" in outcome) notFound();
    return data({ result: submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } }) }, { status: 400 });
  }
  return redirectWithFlash(`/admin/articles/${outcome.id}`, { kind: "success", message: FLASH[outcome.outcome] });
}

const PreviewSchema = z.object({ body: z.string().max(ARTICLE_LIMITS.body).catch("") });

/** The live preview: the body rendered by the one renderer the blog uses. */
export function previewAction(call: Pick<EditorCall, "siteUrl">, formData: FormData) {
  const body = formData.get("body");
  if (typeof body === "string" && body.length > ARTICLE_LIMITS.body)
    return data(
      { intent: "preview" as const, html: null, error: "Too long to preview: keep it under 100,000 characters." },
      { status: 400 },
    );
  const { body: source } = PreviewSchema.parse({ body: typeof body === "string" ? body : "" });
  return {
    intent: "preview" as const,
    html: renderMarkdown(source, { article: true, siteOrigin: call.siteUrl }),
    error: null,
  };
}

/** An image for the body: stored through the media pipeline, answered as Markdown to insert. */
export async function bodyImageAction(call: EditorCall, formData: FormData) {
  const parsed = bodyImageSchema.safeParse({ image: formData.get("image"), alt: formData.get("alt") ?? "" });
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors;
    return data({ intent: "image" as const, markdown: null, errors }, { status: 400 });
  }
  await withinAttemptLimits(limitImageUploads(call.db, { userId: call.actorId, ip: call.ip }));
  const stored = await storeBodyImage(
    call.storage,
    new Uint8Array(await parsed.data.image.arrayBuffer()),
    parsed.data.alt,
  );
  if (!stored.ok)
    return data({ intent: "image" as const, markdown: null, errors: { image: [stored.message] } }, { status: 400 });
  return { intent: "image" as const, markdown: stored.markdown, errors: null };
}
