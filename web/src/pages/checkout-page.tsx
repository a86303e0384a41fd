import { LuShoppingCart } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function CheckoutPage() {
  return <ComingSoon title="Checkout" subtitle="Complete your coin pack purchase." icon={<LuShoppingCart />} />;
}
