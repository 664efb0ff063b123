import { Badge } from "~/ui/badge";

const STATE_BADGES = {
  draft: { label: "Draft", tone: "neutral" },
  scheduled: { label: "Scheduled", tone: "warning" },
  published: { label: "Published", tone: "success" },
} as const;

/** Where an article stands, on the staff pages: a draft, scheduled for a time ahead, or published. */
export function ArticleStateBadge({ state }: { state: keyof typeof STATE_BADGES }) {
  return <Badge tone={STATE_BADGES[state].tone}>{STATE_BADGES[state].label}</Badge>;
}
