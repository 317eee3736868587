import bge.game.photosynthesis.IPhotosynthesisMove;
import bge.game.photosynthesis.PhotosynthesisPosition;
import bge.igame.ArrayMoveList;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Random play of Eirik0/BoardGameEngine's Photosynthesis, for bench/engine_bench.py --bge.
 *
 * The same measure as the Python bench: whole games from the start, each decision lists the legal
 * moves and plays one chosen uniformly at random. Prints the median decisions per second over
 * REPEATS runs of SECONDS each (after one warm-up run), one core.
 * Usage: java BgeRandomPlay SEATS SECONDS REPEATS
 */
public final class BgeRandomPlay {
    public static void main(String[] args) {
        int seats = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int repeats = Integer.parseInt(args[2]);
        run(seats, seconds, 12345L);  // warm-up (JIT)
        double[] rates = new double[repeats];
        for (int k = 0; k < repeats; k++) {
            rates[k] = run(seats, seconds, k);
        }
        Arrays.sort(rates);
        System.out.printf("%.0f%n", rates[repeats / 2]);
    }

    private static double run(int seats, double seconds, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ArrayMoveList<IPhotosynthesisMove> moves = new ArrayMoveList<>(512);
        long decisions = 0;
        long start = System.nanoTime();
        long limit = (long) (seconds * 1e9);
        while (System.nanoTime() - start < limit) {
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
        }
        return decisions / ((System.nanoTime() - start) / 1e9);
    }
}
