import { Link } from 'react-router-dom';
import { PAGES } from '@common/paths.ts';
import { Emblem } from '../components/ui/icons.tsx';
import './site-footer.css';

/**
 * Footer. Deliberately holds no links that repeat the navigation bar, so every
 * navigation target has exactly one link with its name on the page.
 */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__brand">
          <p className="brand" aria-hidden="true">
            <Emblem size={28} />
            <span className="brand__name">
              Luxe<span className="brand__accent">Motors</span>
            </span>
          </p>
          <p>Premium and luxury cars from verified sellers, protected by escrow.</p>
        </div>
        <div className="site-footer__contact">
          <p className="caps-label site-footer__heading">Customer care</p>
          <p>Phone support Mon-Fri 8AM-8PM PST</p>
          <p>Live chat 24/7 · Replies within 4 hours</p>
        </div>
        <div className="site-footer__contact">
          <p className="caps-label site-footer__heading">Buy with confidence</p>
          <p>Escrow-protected payments</p>
          <p>7-day money-back guarantee</p>
          <p>
            <Link to={PAGES.results}>Sold results: what cars sold for</Link>
          </p>
        </div>
      </div>
      <div className="container site-footer__legal">
        <p>© {year} LuxeMotors. All rights reserved.</p>
      </div>
    </footer>
  );
}
