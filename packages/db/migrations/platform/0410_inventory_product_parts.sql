-- Stock (docs/inventory.md): the parts a product (blind type) needs per window, e.g. two brackets
-- per roller shade. The parts themselves, their stock and their moves live in the tenant's ERP
-- (product.product of type "product", stock.quant, stock.move); `part_id` is that ERP product.
CREATE TABLE inventory_product_parts (
  tenant_id uuid NOT NULL,
  product_code varchar(64) NOT NULL,
  part_id integer NOT NULL CHECK (part_id > 0),
  qty_per_window numeric(10, 3) NOT NULL CHECK (qty_per_window > 0 AND qty_per_window <= 1000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, product_code, part_id)
);
SELECT platform_enable_tenant_rls('inventory_product_parts');
