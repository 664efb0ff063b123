-- Every change to a table that public pages show is announced on the page_changes channel, with
-- the table's name, so that each app server drops the cached pages that show it (the page cache
-- listens). One notice per statement; PostgreSQL folds identical notices of one transaction
-- into one, and sends them only when it commits.
CREATE OR REPLACE FUNCTION pitlane_page_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('page_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  shown text;
BEGIN
  FOREACH shown IN ARRAY ARRAY[
    'events', 'ticket_types', 'draws', 'draw_entries', 'play_settings', 'cars', 'car_photos',
    'car_likes', 'users', 'show_car_applications', 'products', 'product_variants', 'articles', 'partners',
    'site_pages'
  ] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS page_changed ON %I', shown);
    EXECUTE format(
      'CREATE TRIGGER page_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION pitlane_page_changed()',
      shown
    );
  END LOOP;
END;
$$;
--> statement-breakpoint
-- Orders change at every Pay press, payment, email and expiry; pages change only when places or
-- stock are sold or given back. And every transaction that notifies takes PostgreSQL's one
-- notify lock as it commits, so orders announce only those changes.
DROP TRIGGER IF EXISTS page_changed ON orders;
--> statement-breakpoint
CREATE TRIGGER page_changed AFTER UPDATE OF status ON orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('paid', 'refunded', 'partly_refunded'))
  EXECUTE FUNCTION pitlane_page_changed();
