import { Badge, type BadgeTone } from "~/ui/badge";
import { MEMBER_VIEWS } from "./member-views";

type State = Exclude<keyof typeof MEMBER_VIEWS, "all">;

const TONES: Record<State, BadgeTone> = { active: "success", grace: "warning", lapsed: "danger", ended: "quiet" };

/** Where a membership stands, in the same words as the staff list's views. */
export function MembershipStateBadge({ state }: { state: State }) {
  return <Badge tone={TONES[state]}>{MEMBER_VIEWS[state]}</Badge>;
}
