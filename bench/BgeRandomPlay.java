import bge.game.photosynthesis.IPhotosynthesisMove;
import bge.game.photosynthesis.PhotosynthesisPosition;
import bge.igame.ArrayMoveList;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Random play of Eirik0/BoardGameEngine's Photosynthesis, for bench/engine_bench.py --bge.
 *
 * The same measure as the Python bench: whole games from the start, each decision lists the legal
 * moves and plays one chosen uniformly at random. Prints the median decisions per second over
 * REPEATS runs of SECONDS each (after one warm-up run), one core, then the decisions per game.
 * With "cpu" the time is the playing thread's CPU time instead of wall time.
 * Usage: java BgeRandomPlay SEATS SECONDS REPEATS [cpu]
 */
public final class BgeRandomPlay {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static boolean cpu;

    private static long games;

    private static long decisionsMade;

    public static void main(String[] args) {
        int seats = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int repeats = Integer.parseInt(args[2]);
        cpu = args.length > 3 && args[3].equals("cpu");
        run(seats, seconds, 12345L);  // warm-up (JIT)
        games = 0;
        decisionsMade = 0;
        double[] rates = new double[repeats];
        for (int k = 0; k < repeats; k++) {
            rates[k] = run(seats, seconds, k);
        }
        Arrays.sort(rates);
        System.out.printf("%.0f %.1f%n", rates[repeats / 2], (double) decisionsMade / games);
    }

    private static long clock() {
        return cpu ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    private static double run(int seats, double seconds, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ArrayMoveList<IPhotosynthesisMove> moves = new ArrayMoveList<>(512);
        long decisions = 0;
        long start = clock();
        long limit = (long) (seconds * 1e9);
        while (clock() - start < limit) {
            PhotosynthesisPosition position = new PhotosynthesisPosition(seats);
            while (true) {
                moves.clear();
                position.getPossibleMoves(moves);
                if (moves.size() == 0) {
                    break;
                }
                position.makeMove(moves.get(rnd.nextInt(moves.size())));
                decisions++;
            }
            games++;
        }
        decisionsMade += decisions;
        return decisions / ((clock() - start) / 1e9);
    }
}
