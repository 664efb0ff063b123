import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { ArticleForm, type ArticleFormValues } from "~/features/articles/article-form";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { saveArticleAction } from "./article-forms.server";

const EMPTY: ArticleFormValues = { title: "", slug: "", excerpt: "", tags: "", body: "", coverAlt: "", publishAt: "" };

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  return { timeZone: context.get(runtimeContext).env.TIME_ZONE };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env, storage } = context.get(runtimeContext);
  const call = {
    db,
    storage,
    actorId: user.id,
    ip: context.get(requestContext).ip,
    timeZone: env.TIME_ZONE,
    siteUrl: env.SITE_URL,
  };
  return saveArticleAction({ ...call, articleId: null }, await readForm(request));
}

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[1100px]">
      <Link
        to="/admin/articles"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Articles
      </Link>
      <h1 className="wide mt-2 text-3xl font-extrabold sm:text-4xl">New article</h1>
      <div className="mt-8">
        <ArticleForm
          lastResult={actionData?.result}
          defaults={EMPTY}
          state="new"
          cover={null}
          timeZone={loaderData.timeZone}
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "New article", "Dashboard") },
  { name: "robots", content: "noindex" },
];
