-- What a widget visitor's browser told when their session started (issue 31): its IANA time zone
-- and the browser's name read from its User-Agent, so that the people's list can call an unknown
-- customer "Visitor from Berlin · Chrome" (no geo-IP database). Kept per customer of an inbox, since
-- a widget customer's contact is made only when people open their conversation; erased with them.
CREATE TABLE visitor_traits (
  inbox_id text NOT NULL,
  customer_ref text NOT NULL,
  time_zone text,
  browser text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (inbox_id, customer_ref)
);
