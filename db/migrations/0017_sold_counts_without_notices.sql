-- A ticket type's sold count changes at every sale, in the statement that pays the order, and the
-- order's own change to paid already announces the sale to the page cache (its pages include
-- every page a ticket type shows on). Announcing the count as well cost a second notice per sale,
-- which every server then acted on, and PostgreSQL's notify lock is taken by each notifying commit.
-- So an update of ticket_types announces itself only when something besides its sold count (and
-- the time it was updated) changed; inserts and deletes still always do. A refund of some of an
-- order's tickets, which leaves the order partly refunded, then shows within the page cache's
-- two-second bound.
DROP TRIGGER IF EXISTS page_changed ON ticket_types;
--> statement-breakpoint
CREATE TRIGGER page_changed AFTER INSERT OR DELETE OR TRUNCATE ON ticket_types
  FOR EACH STATEMENT EXECUTE FUNCTION pitlane_page_changed();
--> statement-breakpoint
CREATE TRIGGER page_changed_update AFTER UPDATE ON ticket_types
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'sold' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'sold' - 'updated_at'))
  EXECUTE FUNCTION pitlane_page_changed();
