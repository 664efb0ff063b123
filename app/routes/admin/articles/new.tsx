import { ArticleForm, type ArticleFormValues } from "~/features/articles/article-form";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { FormPage } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { editorCall, saveArticleAction } from "./article-forms.server";

const EMPTY: ArticleFormValues = { title: "", slug: "", excerpt: "", tags: "", body: "", coverAlt: "", publishAt: "" };

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  return { timeZone: context.get(runtimeContext).env.TIME_ZONE };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  return saveArticleAction({ ...editorCall(context, user.id), articleId: null }, await readForm(request));
}

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <FormPage back={{ to: "/admin/articles", label: "Articles" }} title="New article" wide>
      <ArticleForm
        lastResult={actionData?.result}
        defaults={EMPTY}
        state="new"
        cover={null}
        timeZone={loaderData.timeZone}
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "New article");
