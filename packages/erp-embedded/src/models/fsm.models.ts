/**
 * Field service with OCA `fieldservice` naming (fsm.stage, fsm.location, fsm.person, fsm.team,
 * fsm.order). OCA's fsm.location and fsm.person `_inherits` res.partner; here they are flat models
 * with their own name/address/contact fields and a plain `partner_id`: a location has its partner's
 * name and phones when its maker writes them (the platform's jobs do), and keeps following the
 * partner's later edits (orm/hooks/fsm.hooks.ts `followPartner`). OCA's fsm.order related fields
 * (street, zip, city, phone, stage_name...) are stored computes here. Actions: orm/actions/fsm.actions.ts.
 */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';
import { companyField, related } from './common.js';

/** OCA `fsm_stage.AVAILABLE_PRIORITIES`. */
export const FSM_PRIORITIES: [string, string][] = [
  ['0', 'Normal'],
  ['1', 'Low'],
  ['2', 'High'],
  ['3', 'Urgent'],
];

const address = {
  street: f.char('Street'),
  street2: f.char('Street2'),
  city: f.char('City'),
  zip: f.char('Zip'),
  phone: f.char('Phone'),
  mobile: f.char('Mobile'),
  email: f.char('Email'),
};

export const fsmModels: ModelSpec[] = [
  {
    name: 'fsm.stage',
    description: 'Field Service Stage',
    order: 'sequence, name, id',
    fields: {
      name: f.char('Name', { required: true }),
      sequence: f.integer('Sequence', { default: 1, required: true }),
      stage_type: f.selection(
        'Type',
        [
          ['order', 'Order'],
          ['equipment', 'Equipment'],
          ['location', 'Location'],
          ['worker', 'Worker'],
        ],
        { required: true, default: 'order' },
      ),
      is_closed: f.boolean('Is a close stage', { default: false }),
      is_default: f.boolean('Is a default stage', { default: false }),
      fold: f.boolean('Folded in Kanban', { default: false }),
      description: f.text('Description'),
      custom_color: f.char('Color Code', { default: '#FFFFFF' }),
      company_id: f.many2one('res.company', 'Company'),
    },
  },
  {
    name: 'fsm.team',
    description: 'Field Service Team',
    order: 'sequence, name, id',
    fields: {
      name: f.char('Name', { required: true }),
      description: f.text('Description'),
      sequence: f.integer('Sequence', { default: 1 }),
      color: f.integer('Color Index'),
      company_id: companyField(),
      order_ids: f.one2many('fsm.order', 'team_id', 'Orders'),
    },
  },
  {
    name: 'fsm.person',
    description: 'Field Service Worker',
    order: 'name, id',
    fields: {
      name: f.char('Name', { required: true }),
      partner_id: f.many2one('res.partner', 'Related Partner'),
      ...address,
      active: f.boolean('Active', { default: true }),
    },
  },
  {
    name: 'fsm.location',
    description: 'Field Service Location',
    order: 'name, id',
    parentName: 'fsm_parent_id',
    recursionMessage: 'You cannot create recursive location.',
    fields: {
      name: f.char('Name', { required: true }),
      partner_id: f.many2one('res.partner', 'Related Partner'),
      owner_id: f.many2one('res.partner', 'Related Owner'),
      contact_id: f.many2one('res.partner', 'Primary Contact'),
      fsm_parent_id: f.many2one('fsm.location', 'Parent'),
      ...address,
      direction: f.char('Directions'),
      description: f.text('Description'),
      company_id: companyField(),
      active: f.boolean('Active', { default: true }),
    },
  },
  {
    name: 'fsm.order',
    description: 'Field Service Order',
    order: 'priority desc, scheduled_date_start, id desc',
    sequenceCode: 'fsm.order',
    fields: {
      name: f.char('Name', { required: true, default: 'New' }),
      stage_id: f.many2one('fsm.stage', 'Stage', { ondelete: 'restrict' }),
      is_closed: f.boolean('Is closed'),
      priority: f.selection('Priority', FSM_PRIORITIES, { default: '0' }),
      team_id: f.many2one('fsm.team', 'Team', { required: true }),
      location_id: f.many2one('fsm.location', 'Location', { required: true }),
      person_id: f.many2one('fsm.person', 'Assigned To'),
      person_ids: f.many2many(
        'fsm.person',
        'Field Service Workers',
        f.relTable('fsm_order_fsm_person_rel', 'fsm_order_id', 'fsm_person_id'),
      ),
      request_early: f.datetime('Earliest Request Date'),
      request_late: f.datetime('Latest Request Date'),
      scheduled_date_start: f.datetime('Scheduled Start (ETA)'),
      scheduled_duration: f.float('Scheduled duration', { help: 'Scheduled duration of the work in hours' }),
      scheduled_date_end: f.datetime('Scheduled End'),
      date_start: f.datetime('Actual Start'),
      date_end: f.datetime('Actual End'),
      description: f.text('Description'),
      todo: f.html('Instructions'),
      resolution: f.text('Resolution'),
      company_id: companyField(true),
      // Embedded-only links to the platform's documents (OCA's fieldservice_sale adds sale_id).
      sale_id: f.many2one('sale.order', 'Sales Order'),
      // OCA's related fields of the location and stage (readonly there, stored here): one search_read
      // of orders answers the address and phone without reading the locations.
      street: f.char('Street'),
      street2: f.char('Street2'),
      zip: f.char('Zip'),
      city: f.char('City'),
      phone: f.char('Location Phone'),
      mobile: f.char('Mobile'),
      stage_name: f.char('Stage Name'),
    },
    computes: [
      related('stage_id', { is_closed: 'is_closed', stage_name: 'name' }),
      // Not stored in OCA: a location's edit is no change of its orders (their write_date stays).
      related(
        'location_id',
        { street: 'street', street2: 'street2', zip: 'zip', city: 'city', phone: 'phone', mobile: 'mobile' },
        { touch: false },
      ),
    ],
    // The platform's job list filters a day or a range of starts and pages in this order.
    constraints: ['CREATE INDEX IF NOT EXISTS fsm_order_scheduled_date_start_index ON $T (scheduled_date_start, id)'],
  },
];
