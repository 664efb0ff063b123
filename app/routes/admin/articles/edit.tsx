import { ExternalLink } from "lucide-react";
import { ArticleForm } from "~/features/articles/article-form";
import { ArticleStateBadge } from "~/features/articles/article-state-badge";
import { articleForEditor, articleState } from "~/features/articles/editor.server";
import { toLocalInputValue } from "~/features/dates/time-zones";
import { coverSources } from "~/features/events/cover-urls";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { FormPage } from "~/ui/record-header";
import { useMediaBase } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/edit";
import { articleIdFrom, editorCall, saveArticleAction } from "./article-forms.server";

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
  return saveArticleAction({ ...editorCall(context, user.id), articleId }, await readForm(request));
}

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  const mediaBase = useMediaBase();
  const { cover, state } = loaderData;
  const view = state === "published" ? `/blog/${loaderData.slug}` : `/blog/${loaderData.slug}?preview=1`;
  return (
    <FormPage
      back={{ to: "/admin/articles", label: "Articles" }}
      title={loaderData.title}
      badge={<ArticleStateBadge state={state} />}
      intro={
        <>
          {loaderData.authorName ? <span className="mr-4">By {loaderData.authorName}</span> : null}
          <a href={view} className="inline-flex items-center gap-1 font-semibold text-link underline">
            {state === "published" ? "View on the blog" : "Preview on the blog"}{" "}
            <ExternalLink aria-hidden className="size-4" />
          </a>
        </>
      }
      wide
    >
      <ArticleForm
        key={loaderData.id}
        lastResult={actionData?.result}
        defaults={loaderData.defaults}
        state={state}
        cover={cover ? { src: coverSources(cover.hash, mediaBase).src, alt: cover.alt } : null}
        timeZone={loaderData.timeZone}
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  dashboardMeta(matches, data?.title ?? "Article", "Articles");
