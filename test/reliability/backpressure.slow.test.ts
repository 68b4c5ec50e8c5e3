// The full backpressure figure for the README: 400 simultaneous requests, queues of 4.
import { describeBackpressure } from './backpressure-suite.js';

describeBackpressure(100, 'backpressure');
