import { LuStar } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function FeaturedPage() {
  return <ComingSoon title="Featured" subtitle="Hand-picked servers with bigger rewards." icon={<LuStar />} />;
}
