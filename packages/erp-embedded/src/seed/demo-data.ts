/** The demo window-covering business of `npm run erp -- seed`: company profile, catalogue, customers, vendors. */

export const COMPANY = {
  name: 'Sunridge Window Coverings',
  street: '4100 Burnet Rd',
  street2: 'Suite 110',
  city: 'Austin',
  zip: '78756',
  phone: '+1 512-555-0142',
  email: 'hello@sunridge-windows.example',
  website: 'https://sunridge-windows.example',
  vat: '32-0981234',
};

export const SALES_TAX = { name: 'Sales Tax 8.25%', amount: 8.25, type_tax_use: 'sale', description: '8.25%' };

export const CATEGORIES: Record<string, string> = {
  categ_shades: 'Shades',
  categ_blinds: 'Blinds',
  categ_shutters: 'Shutters',
  categ_services: 'Services',
};

export interface DemoProduct {
  xmlid: string;
  code: string;
  name: string;
  categ: keyof typeof CATEGORIES;
  price: number;
  cost: number;
  service?: boolean;
  description: string;
}

export const PRODUCTS: DemoProduct[] = [
  {
    xmlid: 'product_roller_shade',
    code: 'RS-100',
    name: 'Roller Shade – Light Filtering',
    categ: 'categ_shades',
    price: 189,
    cost: 78,
    description: 'Custom-cut light-filtering roller shade, cordless lift, inside or outside mount.',
  },
  {
    xmlid: 'product_cellular_shade',
    code: 'CS-200',
    name: 'Cellular Shade – Top Down/Bottom Up',
    categ: 'categ_shades',
    price: 249,
    cost: 104,
    description: 'Single-cell honeycomb shade with top-down/bottom-up lift; insulating.',
  },
  {
    xmlid: 'product_roman_shade',
    code: 'RM-500',
    name: 'Roman Shade – Flat Fold',
    categ: 'categ_shades',
    price: 329,
    cost: 140,
    description: 'Flat-fold fabric roman shade, lined, cordless.',
  },
  {
    xmlid: 'product_wood_blind',
    code: 'WB-400',
    name: 'Wood Blind – 2" Basswood',
    categ: 'categ_blinds',
    price: 159,
    cost: 62,
    description: '2" basswood slats with cloth tapes, cordless tilt.',
  },
  {
    xmlid: 'product_motorized_blind',
    code: 'MB-600',
    name: 'Motorized Blind – Rechargeable Motor',
    categ: 'categ_blinds',
    price: 549,
    cost: 260,
    description: 'Motorized faux-wood blind with rechargeable motor, remote and app control.',
  },
  {
    xmlid: 'product_plantation_shutter',
    code: 'PS-300',
    name: 'Plantation Shutter – 3.5" Louver (per panel)',
    categ: 'categ_shutters',
    price: 425,
    cost: 190,
    description: 'Hardwood plantation shutter panel, 3.5" louvers, hidden tilt rod.',
  },
  {
    xmlid: 'product_installation',
    code: 'SVC-INST',
    name: 'Installation Service (per window)',
    categ: 'categ_services',
    price: 45,
    cost: 20,
    service: true,
    description: 'Professional installation, hardware and clean-up included.',
  },
  {
    xmlid: 'product_measure',
    code: 'SVC-MEAS',
    name: 'In-Home Consultation & Measure',
    categ: 'categ_services',
    price: 75,
    cost: 0,
    service: true,
    description: 'Design consultation and precise measuring; credited on orders over $1,000.',
  },
];

export interface DemoPartner {
  xmlid: string;
  name: string;
  company?: boolean;
  email: string;
  phone: string;
  street: string;
  city: string;
  zip: string;
}

export const CUSTOMERS: DemoPartner[] = [
  {
    xmlid: 'partner_hartwell',
    name: 'Emily Hartwell',
    email: 'emily.hartwell@example.com',
    phone: '+1 512-555-0187',
    street: '1207 Elm Ridge Dr',
    city: 'Austin',
    zip: '78745',
  },
  {
    xmlid: 'partner_oakmont',
    name: 'Oakmont Dental Group',
    company: true,
    email: 'office@oakmontdental.example',
    phone: '+1 512-555-0110',
    street: '8800 Research Blvd, Suite 200',
    city: 'Austin',
    zip: '78758',
  },
  {
    xmlid: 'partner_rivera',
    name: 'Carlos & Ana Rivera',
    email: 'rivera.family@example.com',
    phone: '+1 512-555-0163',
    street: '3315 Barton Hills Dr',
    city: 'Austin',
    zip: '78704',
  },
  {
    xmlid: 'partner_patel',
    name: 'Priya Patel',
    email: 'priya.patel@example.com',
    phone: '+1 512-555-0139',
    street: '514 Live Oak St',
    city: 'Round Rock',
    zip: '78664',
  },
  {
    xmlid: 'partner_chen',
    name: 'Chen Design Studio',
    company: true,
    email: 'studio@chendesign.example',
    phone: '+1 512-555-0171',
    street: '2100 S Lamar Blvd',
    city: 'Austin',
    zip: '78704',
  },
  {
    xmlid: 'partner_lakeside',
    name: 'Lakeside Lofts HOA',
    company: true,
    email: 'board@lakesidelofts.example',
    phone: '+1 512-555-0195',
    street: '1500 Lakeshore Blvd',
    city: 'Austin',
    zip: '78741',
  },
];

export const VENDORS: DemoPartner[] = [
  {
    xmlid: 'vendor_skyline',
    name: 'Skyline Shade Manufacturing',
    company: true,
    email: 'orders@skylineshade.example',
    phone: '+1 214-555-0120',
    street: '700 Commerce St',
    city: 'Dallas',
    zip: '75202',
  },
  {
    xmlid: 'vendor_heritage',
    name: 'Heritage Shutter Co.',
    company: true,
    email: 'sales@heritageshutter.example',
    phone: '+1 210-555-0144',
    street: '1220 Broadway',
    city: 'San Antonio',
    zip: '78215',
  },
  {
    xmlid: 'vendor_motion',
    name: 'Motion Drive Systems',
    company: true,
    email: 'dealers@motiondrive.example',
    phone: '+1 713-555-0158',
    street: '4500 Westheimer Rd',
    city: 'Houston',
    zip: '77027',
  },
];

export const FSM_PERSONS: [string, string, string][] = [
  ['person_marcus', 'Marcus Lee', '+1 512-555-0201'],
  ['person_dana', 'Dana Ortiz', '+1 512-555-0202'],
  ['person_jamal', 'Jamal Brooks', '+1 512-555-0203'],
];
