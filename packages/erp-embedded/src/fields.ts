/** Field types of the embedded ORM, with Odoo 15's names and their PostgreSQL columns. */
export type FieldType =
  | 'char'
  | 'text'
  | 'html'
  | 'integer'
  | 'float'
  | 'monetary'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'selection'
  | 'many2one'
  | 'one2many'
  | 'many2many';

/** What a default function sees: the calling user and its current company (Odoo `env.company`). */
export interface DefaultContext {
  uid: number;
  company: number | false;
}

export interface FieldDef {
  name: string;
  type: FieldType;
  string: string;
  required: boolean;
  readonly: boolean;
  /** false for one2many (no column) and computed fields such as display_name. */
  store: boolean;
  default?: unknown;
  defaultFn?: (ctx: DefaultContext) => unknown;
  relation?: string;
  /** one2many: the many2one field on the comodel pointing back. */
  inverseName?: string;
  /** many2many: relation table and its two columns (this side, other side). */
  relationTable?: string;
  column1?: string;
  column2?: string;
  selection?: [string, string][];
  ondelete?: 'set null' | 'restrict' | 'cascade';
  help?: string;
  /** Never returned by read (password hashes). */
  secret?: boolean;
  /** Set by the registry on create/write_date & co. */
  magic?: boolean;
  /** Set by the registry on fields a stored compute of the model sets (Odoo `compute=`, `store=True`). */
  computed?: boolean;
  /** The compute's `@api.depends`, for fields_get. */
  depends?: string[];
}

export type FieldSpec = Omit<FieldDef, 'name' | 'type' | 'string' | 'required' | 'readonly' | 'store'> &
  Partial<Pick<FieldDef, 'required' | 'readonly' | 'store'>>;

const make =
  (type: FieldType) =>
  (string: string, opts: FieldSpec = {}): Omit<FieldDef, 'name'> => ({
    type,
    string,
    required: false,
    readonly: false,
    store: type !== 'one2many',
    ...opts,
  });

export const f = {
  char: make('char'),
  text: make('text'),
  html: make('html'),
  integer: make('integer'),
  float: make('float'),
  monetary: make('monetary'),
  boolean: make('boolean'),
  date: make('date'),
  datetime: make('datetime'),
  selection: (string: string, selection: [string, string][], opts: FieldSpec = {}) =>
    make('selection')(string, { ...opts, selection }),
  many2one: (relation: string, string: string, opts: FieldSpec = {}) => make('many2one')(string, { ...opts, relation }),
  one2many: (relation: string, inverseName: string, string: string, opts: FieldSpec = {}) =>
    make('one2many')(string, { ...opts, relation, inverseName }),
  many2many: (relation: string, string: string, opts: FieldSpec = {}) =>
    make('many2many')(string, { ...opts, relation }),
  /** A many2many's table and columns, in the order Odoo's `fields.Many2many(comodel, relation, column1, column2)` names them. */
  relTable: (relationTable: string, column1: string, column2: string): FieldSpec => ({
    relationTable,
    column1,
    column2,
  }),
};

/** The PostgreSQL type of a field's column (also used to cast query parameters). */
export function sqlType(type: FieldType): string {
  switch (type) {
    case 'char':
    case 'text':
    case 'html':
    case 'selection':
      return 'text';
    case 'integer':
    case 'many2one':
      return 'integer';
    case 'float':
    case 'monetary':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamp';
    default:
      throw new Error(`field type ${type} has no column`);
  }
}

export const hasColumn = (fd: FieldDef): boolean => fd.store && fd.type !== 'one2many' && fd.type !== 'many2many';
export const isX2many = (fd: FieldDef): boolean => fd.type === 'one2many' || fd.type === 'many2many';
