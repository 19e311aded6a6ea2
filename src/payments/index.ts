/** Payments (recorded and read by src/settlement): what the rest of the app may use of src/payments. */
export { PaymentEntity } from './payment.entity';
