/**
 * Odoo's `ir.model` and `ir.model.fields`, read-only here: their rows describe the registry and are
 * rewritten from it at every start (seed/introspection.ts); create/write/unlink over RPC are refused
 * (orm/hooks/introspection.hooks.ts), since the embedded ERP's models come from code.
 */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';

export const FIELD_TYPES: [string, string][] = [
  'binary',
  'boolean',
  'char',
  'date',
  'datetime',
  'float',
  'html',
  'integer',
  'many2many',
  'many2one',
  'many2one_reference',
  'monetary',
  'one2many',
  'reference',
  'selection',
  'text',
].map((t) => [t, t]);

export const introspectionModels: ModelSpec[] = [
  {
    name: 'ir.model',
    description: 'Models',
    order: 'model',
    fields: {
      name: f.char('Model Description', { required: true }),
      model: f.char('Model', { required: true }),
      order: f.char('Order', { default: 'id', required: true }),
      info: f.text('Information'),
      field_id: f.one2many('ir.model.fields', 'model_id', 'Fields'),
      state: f.selection(
        'Type',
        [
          ['manual', 'Custom Object'],
          ['base', 'Base Object'],
        ],
        { default: 'manual' },
      ),
      transient: f.boolean('Transient Model'),
      modules: f.char('In Apps'),
    },
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS ir_model_obj_name_uniq ON $T (model)'],
  },
  {
    name: 'ir.model.fields',
    description: 'Fields',
    order: 'name',
    recName: 'field_description',
    fields: {
      name: f.char('Field Name', { required: true }),
      complete_name: f.char('Complete Name'),
      model: f.char('Model Name', { required: true }),
      relation: f.char('Related Model'),
      relation_field: f.char('Relation Field'),
      model_id: f.many2one('ir.model', 'Model', { required: true, ondelete: 'cascade' }),
      field_description: f.char('Field Label', { required: true }),
      help: f.text('Field Help'),
      ttype: f.selection('Field Type', FIELD_TYPES, { required: true }),
      selection: f.char('Selection Options (Deprecated)'),
      required: f.boolean('Required'),
      readonly: f.boolean('Readonly'),
      index: f.boolean('Indexed'),
      store: f.boolean('Stored', { default: true }),
      copied: f.boolean('Copied'),
      related: f.char('Related Field'),
      relation_table: f.char('Relation Table'),
      column1: f.char('Column 1'),
      column2: f.char('Column 2'),
      compute: f.text('Compute'),
      depends: f.char('Dependencies'),
      on_delete: f.selection(
        'On Delete',
        [
          ['cascade', 'Cascade'],
          ['set null', 'Set NULL'],
          ['restrict', 'Restrict'],
        ],
        { default: 'set null' },
      ),
      state: f.selection(
        'Type',
        [
          ['manual', 'Custom Field'],
          ['base', 'Base Field'],
        ],
        { default: 'manual', required: true },
      ),
    },
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS ir_model_fields_name_unique ON $T (model, name)'],
  },
];
