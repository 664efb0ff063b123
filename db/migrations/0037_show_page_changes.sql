-- A car show's classes, entries, awards, categories and settings show on the results pages, and
-- awards and the owners' history choices on the cars' community pages: their changes are
-- announced on the page_changes channel like the other tables public pages show (migration 0016).
DO $$
DECLARE
  shown text;
BEGIN
  FOREACH shown IN ARRAY ARRAY[
    'show_classes', 'show_entries', 'show_awards', 'show_settings', 'vote_categories', 'car_history_choices'
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
