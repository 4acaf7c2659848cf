-- A token refresh holds a lease on its connection instead of a lock inside a platform transaction: the
-- provider call happens between two short statements, so a slow provider never holds the platform
-- database (on the embedded database one transaction blocks every other query). The rotated tokens are
-- stored only if the row still has the refresh token that was used (compare-and-set), so two refreshers
-- cannot lose a rotated refresh token. An expired lease (a crashed worker) may be taken over.
ALTER TABLE accounting_connections ADD COLUMN refresh_lease_until timestamptz;
