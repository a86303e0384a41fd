import { LuShoppingCart } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function BuyCoinsPage() {
  return <ComingSoon title="Buy Coins" subtitle="Top up your balance with a coin pack." icon={<LuShoppingCart />} />;
}
