-- A worker registering (or undoing) provider money in the ERP holds a lease on its row instead of a
-- lock inside a platform transaction: the ERP call happens between two short transactions, so a slow
-- ERP never holds the platform database (on the embedded database one transaction blocks every other
-- query). An expired lease (a crashed worker) may be taken over; the ERP helpers find what the first
-- worker created by its reference (docs/integrations.md "Accounting").
ALTER TABLE accounting_payments ADD COLUMN lease_until timestamptz;
