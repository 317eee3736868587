import bge.game.photosynthesis.IPhotosynthesisMove;
import bge.game.photosynthesis.PhotosynthesisPosition;
import bge.igame.ArrayMoveList;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.IOException;

/**
 * Legal-move counts ("perft") of Eirik0/BoardGameEngine's Photosynthesis, for bench/bge_perft.py.
 *
 * Reads one position a line: the number of seats, then the moves that reach it from a new game,
 * each written as BoardGameEngine prints it (toString: "S(x, y)" a setup tree, "B0".."B3" a buy,
 * "U(x, y)" a grow or a harvest, "S(x, y)-(x, y)" a seed, "End"), separated by ";". Each move
 * must be one of the legal moves BoardGameEngine lists at that point. Prints a line per position:
 * "D1 D2" (the legal moves, and the legal moves after each of them, summed; the standard perft:
 * a finished game has no moves), or "illegal I MOVE" when the I-th move (0-based) is not legal.
 * Usage: java BgePerft < positions.txt
 */
public final class BgePerft {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.split("\\|", -1);
            PhotosynthesisPosition position = new PhotosynthesisPosition(Integer.parseInt(parts[0]));
            String error = null;
            String[] moves = parts[1].isEmpty() ? new String[0] : parts[1].split(";");
            for (int i = 0; i < moves.length && error == null; i++) {
                IPhotosynthesisMove move = find(position, moves[i]);
                if (move == null) {
                    error = "illegal " + i + " " + moves[i];
                } else {
                    position.makeMove(move);
                }
            }
            System.out.println(error != null ? error : perft(position, 1) + " " + perft(position, 2));
        }
    }

    private static ArrayMoveList<IPhotosynthesisMove> legal(PhotosynthesisPosition position) {
        ArrayMoveList<IPhotosynthesisMove> moves = new ArrayMoveList<>(512);
        position.getPossibleMoves(moves);
        return moves;
    }

    private static IPhotosynthesisMove find(PhotosynthesisPosition position, String name) {
        ArrayMoveList<IPhotosynthesisMove> moves = legal(position);
        for (int i = 0; i < moves.size(); i++) {
            if (moves.get(i).toString().equals(name)) {
                return moves.get(i);
            }
        }
        return null;
    }

    private static long perft(PhotosynthesisPosition position, int depth) {
        ArrayMoveList<IPhotosynthesisMove> moves = legal(position);
        if (depth == 1) {
            return moves.size();
        }
        long total = 0;
        for (int i = 0; i < moves.size(); i++) {
            PhotosynthesisPosition child = (PhotosynthesisPosition) position.createCopy();
            child.makeMove(moves.get(i));
            total += perft(child, depth - 1);
        }
        return total;
    }
}
