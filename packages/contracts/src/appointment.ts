/**
 * The customer's appointment page (`GET /portal/appointments/{token}`, the {{portal_link}} of a job's
 * messages): what the control plane answers and the frontend's page shows.
 */

/** Where the visit stands for the customer: the job's stage, folded to what a customer cares about. */
export const APPOINTMENT_STAGES = ['scheduled', 'on_the_way', 'done', 'cancelled'] as const;
export type AppointmentStage = (typeof APPOINTMENT_STAGES)[number];

export interface PortalAppointmentAnswer {
  appointment: {
    /** ISO instants of the visit; the words below say them in the company's time zone. */
    start: string;
    end: string | null;
    /** "Tuesday 1 December" and "10:00–12:00" in `time_zone`. */
    date: string;
    window: string;
    time_zone: string;
    /** The technician's first name only; null when nobody is assigned yet. */
    technician: string | null;
    /** One line: street, city, ZIP. */
    address: string;
    stage: AppointmentStage;
  };
  company: { name: string; phone: string | null; email: string | null };
  link: { expires_at: string };
}
