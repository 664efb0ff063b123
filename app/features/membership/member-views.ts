/** The staff member list's views, by where each membership stands. */
export const MEMBER_VIEWS = {
  all: "All",
  active: "Active",
  grace: "Renewal not paid",
  lapsed: "Lapsed",
  ended: "Ended",
} as const;

export type MemberView = keyof typeof MEMBER_VIEWS;
