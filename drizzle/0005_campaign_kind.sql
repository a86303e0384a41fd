ALTER TABLE `servers` ADD `kind` text DEFAULT 'regular' NOT NULL;--> statement-breakpoint
-- Backfill from the implicit fields the kind replaces: no guild for the bot = no-bot, else featured or regular.
UPDATE `servers` SET `kind` = CASE WHEN `server_id` IS NULL THEN 'nobot' WHEN `is_featured` = 1 THEN 'featured' ELSE 'regular' END;
--> statement-breakpoint
-- is_featured and server_id stay (Discover's SQL and the bot read them); these keep them agreeing with kind.
CREATE TRIGGER `servers_kind_consistent_insert` BEFORE INSERT ON `servers`
WHEN NEW.`kind` NOT IN ('regular', 'featured', 'nobot')
  OR (NEW.`kind` = 'nobot') != (NEW.`server_id` IS NULL)
  OR (NEW.`kind` = 'featured') != (NEW.`is_featured` = 1)
BEGIN SELECT RAISE(ABORT, 'servers.kind disagrees with is_featured or server_id'); END;
--> statement-breakpoint
CREATE TRIGGER `servers_kind_consistent_update` BEFORE UPDATE OF `kind`, `is_featured`, `server_id` ON `servers`
WHEN NEW.`kind` NOT IN ('regular', 'featured', 'nobot')
  OR (NEW.`kind` = 'nobot') != (NEW.`server_id` IS NULL)
  OR (NEW.`kind` = 'featured') != (NEW.`is_featured` = 1)
BEGIN SELECT RAISE(ABORT, 'servers.kind disagrees with is_featured or server_id'); END;
