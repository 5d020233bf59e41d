/// The alerts schema, newest last. Never edit a released migration: add the next one.
public enum AlertSchema {
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "devices, alerts, alert states, notifications, fence", sql: """
            CREATE TABLE devices (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                platform text NOT NULL CHECK (platform IN ('ios', 'android')),
                push_token text NOT NULL CHECK (length(push_token) BETWEEN 1 AND 4096),
                time_zone text NOT NULL,
                secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
                token_dead boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL DEFAULT now(),
                updated_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE alerts (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
                kind text NOT NULL CHECK (kind IN ('price_below', 'price_drop', 'price_rise', 'cheapest_changed', 'wa_tomorrow')),
                fuel text NOT NULL,
                station_ids integer[],
                near_lat double precision,
                near_lng double precision,
                radius_km double precision,
                threshold_tenths integer,
                change_tenths integer CHECK (change_tenths >= 10),
                delivery text NOT NULL DEFAULT 'immediate' CHECK (delivery IN ('immediate', 'daily')),
                at_minute smallint CHECK (at_minute BETWEEN 0 AND 1439),
                quiet_from_minute smallint CHECK (quiet_from_minute BETWEEN 0 AND 1439),
                quiet_to_minute smallint CHECK (quiet_to_minute BETWEEN 0 AND 1439),
                created_at timestamptz NOT NULL DEFAULT now(),
                updated_at timestamptz NOT NULL DEFAULT now(),
                CHECK ((station_ids IS NOT NULL AND cardinality(station_ids) BETWEEN 1 AND 20
                        AND near_lat IS NULL AND near_lng IS NULL AND radius_km IS NULL)
                    OR (station_ids IS NULL AND near_lat BETWEEN -90 AND 90 AND near_lng BETWEEN -180 AND 180
                        AND radius_km > 0 AND radius_km <= 25)),
                CHECK ((delivery = 'immediate') = (at_minute IS NULL)),
                CHECK ((quiet_from_minute IS NULL) = (quiet_to_minute IS NULL))
            );
            CREATE INDEX alerts_device ON alerts (device_id);
            -- Per (alert, station): whether price_below is armed, and the price last notified (drop/rise measure from it).
            CREATE TABLE alert_states (
                alert_id bigint NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
                station_id integer NOT NULL,
                armed boolean NOT NULL DEFAULT true,
                last_notified_tenths integer,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (alert_id, station_id)
            );
            -- The outbox: one row per decision, unique by its key; sent at least once, shown once (collapse id).
            CREATE TABLE notifications (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
                alert_id bigint REFERENCES alerts (id) ON DELETE SET NULL,
                decision_key text NOT NULL UNIQUE,
                collapse_id text NOT NULL,
                payload jsonb NOT NULL,
                fence_generation bigint NOT NULL,
                fence_revision bigint NOT NULL,
                decided_at timestamptz NOT NULL DEFAULT now(),
                deliver_after timestamptz NOT NULL DEFAULT now(),
                sent_at timestamptz,
                attempts integer NOT NULL DEFAULT 0,
                last_error text
            );
            CREATE INDEX notifications_unsent ON notifications (deliver_after) WHERE sent_at IS NULL;
            CREATE INDEX notifications_device ON notifications (device_id, id);
            -- One row: the newest fencing token that decided anything. Only a token at least as new may advance it.
            CREATE TABLE fence (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                generation bigint NOT NULL,
                revision bigint NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now()
            );
            INSERT INTO fence (generation, revision) VALUES (0, 0)
            """),
        Migration(version: 2, name: "cheapest station state, evaluation progress, delivery failures", sql: """
            -- cheapest_changed keeps one row per alert (station_id 0): the station and price last notified.
            ALTER TABLE alert_states ADD COLUMN reference_station integer;
            -- One row: the last snapshot the evaluator decided on, advanced in the fenced decide transaction, so
            -- snapshots published while the database was down are evaluated from here when it returns.
            CREATE TABLE alert_progress (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                snapshot_version bigint NOT NULL,
                snapshot_changed_at double precision,
                tomorrow_announced text,
                updated_at timestamptz NOT NULL DEFAULT now()
            );
            ALTER TABLE notifications ADD COLUMN last_attempt_at timestamptz
            """),
        Migration(version: 3, name: "each device's alert count", sql: """
            -- How many alerts a device has. A create claims a slot with a conditional UPDATE of this row, which
            -- PostgreSQL re-checks against the row's newest version when another create holds it, so the limit holds
            -- in one statement (a count(*) there would read the statement's older snapshot).
            ALTER TABLE devices ADD COLUMN alert_count integer NOT NULL DEFAULT 0 CHECK (alert_count >= 0);
            UPDATE devices d SET alert_count = c.n FROM (SELECT device_id, count(*)::integer AS n FROM alerts GROUP BY device_id) c
            WHERE d.id = c.device_id
            """),
        Migration(version: 4, name: "the inbox in the order notifications were sent", sql: """
            -- The inbox pages a device's sent notifications by (sent_at, id), newest first: without this index it
            -- reads and sorts a device's whole history on every call.
            CREATE INDEX notifications_device_sent ON notifications (device_id, sent_at, id) WHERE sent_at IS NOT NULL
            """),
        Migration(version: 5, name: "an app's retried alert create is one alert", sql: """
            -- The Idempotency-Key an app sent with POST /v1/devices/{id}/alerts: a retry with the same key (its answer
            -- lost on a mobile network, say) answers the alert the first request made instead of making a second.
            ALTER TABLE alerts ADD COLUMN idempotency_key text;
            CREATE UNIQUE INDEX alerts_idempotency_key ON alerts (device_id, idempotency_key) WHERE idempotency_key IS NOT NULL
            """),
    ]
}
