import { ArrowLeft, ExternalLink } from "lucide-react";
import { Link } from "react-router";
import { ArticleForm } from "~/features/articles/article-form";
import { articleForEditor, articleState } from "~/features/articles/editor.server";
import { toLocalInputValue } from "~/features/dates/time-zones";
import { coverSources } from "~/features/events/cover-urls";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { Badge } from "~/ui/badge";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { useMediaBase } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/edit";
import { articleIdFrom, saveArticleAction } from "./article-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const article = await articleForEditor(db, articleIdFrom(params.articleId));
  if (!article) notFound();
  const state = articleState(article, new Date());
  return {
    id: article.id,
    slug: article.slug,
    title: article.title,
    authorName: article.authorName,
    state,
    cover: article.cover,
    timeZone: env.TIME_ZONE,
    defaults: {
      title: article.title,
      slug: article.slug,
      excerpt: article.excerpt,
      tags: article.tags.join(", "),
      body: article.body,
      coverAlt: article.cover?.alt ?? "",
      publishAt:
        state === "scheduled" && article.publishedAt ? toLocalInputValue(article.publishedAt, env.TIME_ZONE) : "",
    },
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const articleId = articleIdFrom(params.articleId);
  const { db, env, storage } = context.get(runtimeContext);
  const call = {
    db,
    storage,
    actorId: user.id,
    ip: context.get(requestContext).ip,
    timeZone: env.TIME_ZONE,
    siteUrl: env.SITE_URL,
  };
  return saveArticleAction({ ...call, articleId }, await readForm(request));
}

const STATE_BADGES = {
  draft: { label: "Draft", tone: "neutral" },
  scheduled: { label: "Scheduled", tone: "warning" },
  published: { label: "Published", tone: "success" },
} as const;

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  const mediaBase = useMediaBase();
  const { cover, state } = loaderData;
  const badge = STATE_BADGES[state];
  const view = state === "published" ? `/blog/${loaderData.slug}` : `/blog/${loaderData.slug}?preview=1`;
  return (
    <div className="mx-auto max-w-[1100px]">
      <Link
        to="/admin/articles"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Articles
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="wide text-3xl font-extrabold sm:text-4xl">{loaderData.title}</h1>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </div>
      <p className="mt-2 flex flex-wrap gap-x-4 text-muted">
        {loaderData.authorName ? <span>By {loaderData.authorName}</span> : null}
        <a href={view} className="inline-flex items-center gap-1 font-semibold text-link underline">
          {state === "published" ? "View on the blog" : "Preview on the blog"}{" "}
          <ExternalLink aria-hidden className="size-4" />
        </a>
      </p>
      <div className="mt-8">
        <ArticleForm
          key={loaderData.id}
          lastResult={actionData?.result}
          defaults={loaderData.defaults}
          state={state}
          cover={cover ? { src: coverSources(cover.hash, mediaBase).src, alt: cover.alt } : null}
          timeZone={loaderData.timeZone}
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: pageTitle(matches, data?.title ?? "Article", "Articles", "Dashboard") },
  { name: "robots", content: "noindex" },
];
