/**
 * What other features use of the cars feature: the look of a car card, whose parts the sell
 * preview and the car page's gallery draw too.
 */
import './components/car-card.css';
