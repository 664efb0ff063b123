import { Link } from "react-router";
import { formatArticleDate } from "~/features/articles/article-cards";
import { ArticleStateBadge } from "~/features/articles/article-state-badge";
import { articleState, listArticlesForStaff } from "~/features/articles/editor.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { ListPageHeader } from "~/ui/list-page";
import { ListSearch } from "~/ui/list-search";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const now = new Date();
  const rows = await listArticlesForStaff(db, { q });
  return {
    q,
    timeZone: env.TIME_ZONE,
    articles: rows.map((row) => ({ ...row, state: articleState(row, now) })),
  };
}

function when(date: Date, timeZone: string) {
  const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone }).format(date);
  return `${formatArticleDate(date, timeZone)}, ${time}`;
}

export default function ArticlesAdmin({ loaderData }: Route.ComponentProps) {
  const { articles, q, timeZone } = loaderData;
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Publish"
        title="Articles"
        intro="Event reports, build diaries and news for the blog. Drafts are yours until you publish them, now or at a time you choose."
        create={{ to: "/admin/articles/new", label: "New article" }}
      />

      <ListSearch id="article-search" label="Search by title" q={q} resetKey={q} quiet className="mt-8" />

      {articles.length === 0 ? (
        <Card variant="empty" className="mt-6 px-6 py-12">
          <p className="text-lg font-bold">{q ? `No article titles match “${q}”` : "No articles yet"}</p>
          <p className="mt-2 text-muted">
            {q ? "Try another word." : "Write the first one: an event report is a good start."}
          </p>
        </Card>
      ) : (
        <Card as="ul" variant="list" className="mt-6 overflow-hidden">
          {articles.map((article) => (
            <li
              key={article.id}
              className="relative flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-4 hover:bg-surface-sunken"
            >
              <div className="min-w-0 flex-1">
                <h2 className="font-bold">
                  <Link
                    to={`/admin/articles/${article.id}`}
                    className="after:absolute after:inset-0 after:content-[''] hover:underline"
                  >
                    {article.title}
                  </Link>
                </h2>
                <p className="text-sm text-muted">
                  {article.state === "draft"
                    ? `Edited ${when(article.updatedAt, timeZone)}`
                    : article.state === "scheduled"
                      ? `Goes out ${when(article.publishedAt!, timeZone)}`
                      : `Published ${when(article.publishedAt!, timeZone)}`}
                  {article.authorName ? ` · ${article.authorName}` : ""}
                </p>
              </div>
              <ArticleStateBadge state={article.state} />
            </li>
          ))}
        </Card>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Articles");
